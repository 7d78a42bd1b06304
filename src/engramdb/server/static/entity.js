// The entity page: what the memory holds about one person, place, project or topic
// (GET /v1/entity?name=...): its aliases, first and last seen, the facts that hold now, recent
// episodes, the facts' subject-predicate-object triples and each chain of superseded values. Addressed as #/entity/<name>; above it, the
// list of the entities the memories name.
"use strict";

import { $, api, chip, el, memoryLink, when } from "./util.js";

function factRow(m) {
  return el("li", {}, chip(m.kind, "kind"), " ", memoryLink(m),
    el("span", { class: "note" }, ` ${when(m.at)}`));
}

function tripleRow(t) {
  return el("li", { class: "triple" }, el("span", { class: "chip" }, t.subject), " ",
    el("span", { class: "note" }, t.predicate), " → ", el("strong", {}, t.object));
}

function chainRow(chain) {
  return el("li", {}, el("ol", { class: "chain" }, ...chain.map((m) => el("li", {
    class: "chain-link" + (m.current ? " holds" : " superseded"),
  }, memoryLink(m), el("span", { class: "chain-when" }, m.invalid_at
    ? ` ${m.at.slice(0, 10)} → ${m.invalid_at.slice(0, 10)}, superseded`
    : ` since ${m.at.slice(0, 10)}, holds now`)))));
}

function list(id, items, row, empty) {
  $(id).replaceChildren(...(items.length ? items.map(row)
    : [el("li", { class: "empty" }, empty)]));
}

// the people, places and topics to start from (GET /v1/entities), most named first
export async function loadEntities() {
  const { entities } = await api("GET", "/v1/entities?limit=60");
  $("e-list").replaceChildren(...(entities.length ? entities.map((e) => el("a", {
    class: "chip entity " + e.kind, href: "#/entity/" + encodeURIComponent(e.name),
    title: `${e.kind}, named in ${e.memories} memories` }, e.name,
  el("span", { class: "count" }, ` ${e.memories}`)))
    : [el("span", { class: "note" }, "No person, place or topic is named yet.")]));
}

let opened = 0;  // the latest openEntity call: an earlier one's answer never shows over it

export async function openEntity(name) {
  const mine = ++opened;
  $("e-name").value = name;
  $("e-page").hidden = true;
  if (!name.trim()) return;
  const page = await api("GET", "/v1/entity?" + new URLSearchParams({ name }).toString());
  if (mine !== opened) return;
  $("e-title").textContent = page.name;
  $("e-chips").replaceChildren(...[...page.kinds.map((k) => chip(k, "kind")),
    el("span", {}, `${page.memories} memories, first seen ${when(page.first_seen)}, `
      + `last seen ${when(page.last_seen)}`)]);
  $("e-aliases").replaceChildren(...(page.aliases.length ? page.aliases.map((a) => el("a", {
    class: "chip", href: "#/entity/" + encodeURIComponent(a) }, a))
    : [el("span", { class: "note" }, "none")]));
  list("e-facts", page.facts, factRow, "Nothing about it holds now.");
  list("e-episodes", page.episodes, factRow, "No episodes.");
  list("e-triples", page.triples, tripleRow, "No subject, predicate and value read.");
  list("e-history", page.history, chainRow, "None of its facts has changed.");
  $("e-page").hidden = false;
}

export function entityLinks(memory) {
  return [...memory.people, ...memory.places, ...memory.topics].map((name) => el("a", {
    class: "chip entity", href: "#/entity/" + encodeURIComponent(name) }, name));
}
