// Small helpers shared by the page's modules. Text is always set with textContent (never
// parsed as HTML); no element gets a style attribute (the page runs under a strict CSP).
"use strict";

export const $ = (id) => document.getElementById(id);
const SVG_NS = "http://www.w3.org/2000/svg";
let key = sessionStorage.getItem("engramdb-key") || "";

export function getKey() { return key; }
export function setKey(value) {
  key = value;
  if (value) sessionStorage.setItem("engramdb-key", value);
  else sessionStorage.removeItem("engramdb-key");
}

function fill(node, attrs, children) {
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === "onclick") node.addEventListener("click", value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function el(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

export function svg(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

// the scope an admin key acts on (null: the key's own); every call names it (?user=&agent=)
let scope = JSON.parse(sessionStorage.getItem("engramdb-scope") || "null");
export function getScope() { return scope; }
export function setScope(value) {
  scope = value;
  if (value) sessionStorage.setItem("engramdb-scope", JSON.stringify(value));
  else sessionStorage.removeItem("engramdb-scope");
}

function scoped(path) {
  if (!scope) return path;
  const p = new URLSearchParams({ user: scope.user, agent: scope.agent });
  return path + (path.includes("?") ? "&" : "?") + p.toString();
}

export async function api(method, path, body) {
  path = scoped(path);
  const headers = { Authorization: "Bearer " + key };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) {
    const err = data.error || { code: "error", message: response.statusText };
    throw new Error(`${response.status} ${err.code}: ${err.message}`);
  }
  return data;
}

export function showError(err) { $("error").textContent = err ? String(err.message || err) : ""; }

export async function guard(fn) {
  showError(null);
  try { await fn(); } catch (err) { showError(err); }
}

// ask before something that cannot be undone: the page's own dialog (no window.confirm, so
// the question and its buttons are in the page's words and style); true when confirmed
export function confirmed(question, action) {
  const dialog = $("confirm");
  $("confirm-text").textContent = question;
  $("confirm-yes").textContent = action;
  dialog.returnValue = "";
  dialog.showModal();
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
  });
}

export function when(iso) { return iso ? iso.replace("T", " ").slice(0, 16) : ""; }
export function day(iso) { return iso ? iso.slice(0, 10) : ""; }

export function memoryLink(m, text) {
  return el("a", { class: "open", href: "#/memory/" + encodeURIComponent(m.id) },
    text ?? (m.content || "(erased)"));
}

export function chip(text, cls) { return el("span", { class: "chip " + (cls || "") }, text); }

export function enc(id) { return encodeURIComponent(id); }

// a short readable form of a memory's content for labels in pictures
export function short(text, n) {
  const t = (text || "").replace(/\s+/g, " ").trim();
  return [...t].length > n ? [...t].slice(0, n - 1).join("") + "…" : t;
}
