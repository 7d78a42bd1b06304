// The engramdb web page: a thin client of the /v1 API. Text is always set with textContent
// (never parsed as HTML). The key stays in this tab's sessionStorage.
"use strict";

const KINDS = ["identity", "preference", "fact", "event", "lesson", "rule", "procedure",
  "pending", "gist", "emotion"];
const $ = (id) => document.getElementById(id);
let key = sessionStorage.getItem("engramdb-key") || "";
let current = null;      // the memory open in the detail pane
let nextOffset = null;   // browse paging

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (name === "onclick") node.addEventListener("click", value);
    else node.setAttribute(name, value);
  }
  for (const child of children) {
    node.append(child instanceof Node ? child : document.createTextNode(String(child ?? "")));
  }
  return node;
}

async function api(method, path, body) {
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

function showError(err) { $("error").textContent = err ? String(err.message || err) : ""; }

async function guard(fn) {
  showError(null);
  try { await fn(); } catch (err) { showError(err); }
}

function when(iso) { return iso ? iso.replace("T", " ").slice(0, 16) : ""; }

// ------------------------------------------------------------------ login

async function login(secret) {
  key = secret;
  try {
    const me = await api("GET", "/v1/me");
    sessionStorage.setItem("engramdb-key", key);
    $("who").textContent = `${me.user} / ${me.agent} (${me.role}, key ${me.key.id})`;
    $("login-view").hidden = true;
    $("app").hidden = false;
    $("logout").hidden = false;
    show("search");
  } catch (err) {
    key = "";
    sessionStorage.removeItem("engramdb-key");
    $("login-view").hidden = false;
    $("app").hidden = true;
    $("who").textContent = String(err.message);
  }
}

function logout() {
  sessionStorage.removeItem("engramdb-key");
  key = "";
  location.reload();
}

function show(view) {
  for (const section of document.querySelectorAll(".view")) {
    section.hidden = section.id !== view + "-view";
  }
  for (const tab of document.querySelectorAll(".tab")) {
    tab.classList.toggle("active", tab.dataset.view === view);
  }
  if (view === "stats") guard(loadStats);
}

// ------------------------------------------------------------------ search

function explanation(e) {
  const legs = Object.entries(e.legs).map(([n, l]) => `${n} #${l.rank} (${l.score})`);
  const notes = e.notes.length ? ` — ${e.notes.join("; ")}` : "";
  return `${legs.join(", ") || "no leg"} → fused ${e.fused}, strength ${e.strength}, `
    + `final ${e.final}${notes}`;
}

async function search() {
  const query = $("q").value;
  const hits = await api("POST", "/v1/recall", { query, k: Number($("k").value) || 10 });
  $("search-note").textContent = hits.abstained ? `No answer: ${hits.note}`
    : `${hits.hits.length} hit(s)` + (hits.note ? ` — ${hits.note}` : "");
  $("results").replaceChildren(...hits.hits.map((h) => el("li", { class: "hit" },
    el("a", { class: "open", onclick: () => guard(() => open(h.memory.id)) },
      h.memory.content),
    el("div", { class: "why" },
      `${h.memory.kind} · score ${h.score}${h.woken ? " · woken from the archive" : ""} · `
      + explanation(h.explanation)))));
}

// ------------------------------------------------------------------ browse

function browseQuery(offset) {
  const p = new URLSearchParams({ limit: "50", offset: String(offset) });
  if ($("b-kind").value) p.append("kind", $("b-kind").value);
  if ($("b-uri").value) p.set("uri_prefix", $("b-uri").value);
  if ($("b-since").value) p.set("since", $("b-since").value + "T00:00:00Z");
  if ($("b-until").value) p.set("until", $("b-until").value + "T00:00:00Z");
  p.append("layer", $("b-layer").value);
  if ($("b-newest").checked) p.set("newest_first", "true");
  return "/v1/memories?" + p.toString();
}

async function browse(offset) {
  const page = await api("GET", browseQuery(offset));
  const rows = page.items.map((m) => el("tr", {},
    el("td", {}, when(m.at)), el("td", {}, m.kind), el("td", {}, m.uri || ""),
    el("td", {}, el("a", { class: "open", onclick: () => guard(() => open(m.id)) },
      m.content || "(erased)"))));
  const body = $("list").tBodies[0];
  if (offset === 0) body.replaceChildren(...rows); else body.append(...rows);
  nextOffset = page.next_offset;
  $("more").hidden = nextOffset === null;
}

// ------------------------------------------------------------------ one memory

function fieldRows(obj, skip) {
  return Object.entries(obj)
    .filter(([n, v]) => !skip.includes(n) && v !== null && v !== "" &&
      !(Array.isArray(v) && v.length === 0) &&
      !(typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0))
    .map(([n, v]) => el("tr", {}, el("th", {}, n),
      el("td", {}, typeof v === "object" ? JSON.stringify(v) : v)));
}

async function open(id) {
  const [memory, history, strength] = await Promise.all([
    api("GET", `/v1/memories/${encodeURIComponent(id)}`),
    api("GET", `/v1/memories/${encodeURIComponent(id)}/history`),
    api("GET", `/v1/memories/${encodeURIComponent(id)}/strength`),
  ]);
  current = memory;
  $("detail").hidden = false;
  $("d-id").textContent = memory.id;
  $("d-content").textContent = memory.content || "(erased)";
  $("d-fields").replaceChildren(...fieldRows(memory, ["id", "content", "content_hash"]));
  $("edit-content").value = memory.content;
  $("forget").hidden = memory.layer === "deleted";
  $("restore").hidden = memory.layer === "core";
  $("strength").replaceChildren(...fieldRows(strength, []));
  const chain = [];
  for (const v of history.versions) {
    const last = chain[chain.length - 1];
    if (last && last.id === v.memory.id) chain[chain.length - 1] = v.memory;
    else chain.push(v.memory);
  }
  $("chain").replaceChildren(...chain.map((m) => el("li", {},
    el("a", { class: "open", onclick: () => guard(() => open(m.id)) }, m.content || "(erased)"),
    ` — ${m.id}${m.invalid_at ? ` (until ${when(m.invalid_at)}, superseded by `
      + `${m.superseded_by})` : " (holds now)"}`)));
  $("history").tBodies[0].replaceChildren(...history.versions.map((v) => el("tr",
    { class: "version" + (v.current ? " current" : "") },
    el("td", {}, "…" + v.memory.id.slice(-6)), el("td", {}, v.version + (v.current ? " *" : "")),
    el("td", {}, v.op), el("td", {}, when(v.at)),
    el("td", {}, `${v.user}/${v.agent}` + (v.actor ? ` (${v.actor})` : "")),
    el("td", {}, v.reason || ""), el("td", {}, v.memory.layer),
    el("td", { class: "content" }, v.memory.content))));
  await showLinks(memory.id);
  $("detail").scrollIntoView();
}

// Links come from GET /v1/memories/{id}/links where the server has that route; the part stays
// hidden on a server without it.
async function showLinks(id) {
  let data;
  try {
    data = await api("GET", `/v1/memories/${encodeURIComponent(id)}/links`);
  } catch (err) {
    $("links-part").hidden = true;
    return;
  }
  $("links-part").hidden = false;
  $("links").replaceChildren(...(data.links || []).map((l) => {
    const other = l.source === id ? l.target : l.source;
    return el("li", {}, `${l.relation} (${l.weight}) `,
      el("a", { class: "open", onclick: () => guard(() => open(other)) }, other));
  }));
}

async function save() {
  await api("PATCH", `/v1/memories/${encodeURIComponent(current.id)}`,
    { content: $("edit-content").value });
  await open(current.id);
}

async function forget() {
  await api("DELETE", `/v1/memories/${encodeURIComponent(current.id)}`);
  await open(current.id);
}

async function restore() {
  await api("POST", `/v1/memories/${encodeURIComponent(current.id)}/restore`);
  await open(current.id);
}

// ------------------------------------------------------------------ sleep and stats

async function runSleep() {
  const report = await api("POST", "/v1/sleep", {});
  const rows = report.phases.map((p) => el("tr", {}, el("td", {}, p.phase),
    el("td", {}, p.examined), el("td", {}, JSON.stringify(p.counts)),
    el("td", {}, (p.ids || []).length), el("td", {}, p.note || "")));
  const skipped = Object.entries(report.skipped).map(([n, why]) => el("li", {}, `${n}: ${why}`));
  $("sleep-report").replaceChildren(
    el("p", {}, `Sleep at ${when(report.at)} for ${report.user}/${report.agent}`),
    el("table", {}, el("tr", {}, el("th", {}, "phase"), el("th", {}, "examined"),
      el("th", {}, "changed"), el("th", {}, "memories"), el("th", {}, "note")), ...rows),
    el("ul", {}, ...skipped));
}

async function loadStats() {
  const s = await api("GET", "/v1/stats");
  $("stats").replaceChildren(...fieldRows(s, []));
}

// ------------------------------------------------------------------ wiring

for (const kind of KINDS) $("b-kind").append(el("option", { value: kind }, kind));
$("login-form").addEventListener("submit", (e) => { e.preventDefault(); login($("key").value); });
$("logout").addEventListener("click", logout);
$("search-form").addEventListener("submit", (e) => { e.preventDefault(); guard(search); });
$("browse-form").addEventListener("submit", (e) => { e.preventDefault(); guard(() => browse(0)); });
$("more").addEventListener("click", () => guard(() => browse(nextOffset)));
$("save").addEventListener("click", () => guard(save));
$("forget").addEventListener("click", () => guard(forget));
$("restore").addEventListener("click", () => guard(restore));
$("run-sleep").addEventListener("click", () => guard(runSleep));
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => show(tab.dataset.view));
}
if (key) login(key);
