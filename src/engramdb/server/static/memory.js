// The memory page: what it says, its fields, an editor (content, kind, URI: a new version),
// forget, restore and a confirmed delete for good, its strength curve, supersession chain,
// gist and sources, link graph, and its version history as a diff.
"use strict";

import { diff, linkGraph, strengthCurve } from "./charts.js";
import { entityLinks } from "./entity.js";
import { KINDS } from "./manage.js";
import { $, api, chip, confirmed, el, enc, memoryLink, when } from "./util.js";

let current = null;

function fieldRows(obj, skip) {
  return Object.entries(obj)
    .filter(([n, v]) => !skip.includes(n) && v !== null && v !== "" &&
      !(Array.isArray(v) && v.length === 0) &&
      !(typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 0))
    .map(([n, v]) => el("tr", {}, el("th", {}, n),
      el("td", {}, typeof v === "object" ? JSON.stringify(v) : v)));
}

function strengthSummary(s, c) {
  const rows = [
    ["weight", `${s.weight} (floor ${s.floor}, archive below ${s.archive_below})`],
    ["retention", s.retention],
    ["half-life", s.effective_half_life_days === null ? "never fades (P0)"
      : `${Math.round(s.effective_half_life_days)} days (${s.priority})`],
    ["uses", `${s.uses}` + (s.uses ? `, last ${Math.round(s.since_last_use_days)} days ago` : "")],
    ["fades", c.archive_at ? `below the archive line about ${c.archive_at.slice(0, 10)} if unused`
      : s.archivable ? "the next sleep archives it" : "not within the picture"],
  ];
  return rows.map(([n, v]) => el("tr", {}, el("th", {}, n), el("td", {}, v)));
}

function chainView(chain, id) {
  if (chain.length < 2) return [el("li", { class: "empty" }, "Not part of a chain: nothing "
    + "replaced it and it replaced nothing.")];
  return chain.map((m) => el("li", { class: "chain-link" + (m.current ? " holds" : " superseded")
    + (m.id === id ? " this" : "") },
  memoryLink(m), el("span", { class: "chain-when" }, m.invalid_at
    ? ` ${m.at.slice(0, 10)} → ${m.invalid_at.slice(0, 10)}, superseded`
    : ` since ${m.at.slice(0, 10)}, holds now`)));
}

function lineageView(lin) {
  const parts = [];
  if (lin.gists.length) {
    parts.push(el("p", {}, "Folded into the gist:"), el("ul", {},
      ...lin.gists.map((g) => el("li", {}, memoryLink(g)))));
  }
  if (lin.gist_sources.length) {
    parts.push(el("p", {}, `A gist of ${lin.gist_sources.length} source memories:`),
      el("ol", { class: "sources" }, ...lin.gist_sources.map((m) => el("li",
        { class: m.layer === "archived" ? "archived" : "" }, memoryLink(m),
        ` (${m.kind}, ${m.at.slice(0, 10)}, ${m.layer})`))));
  }
  (lin.levels || []).slice(1).forEach((level, i) => {
    parts.push(el("p", {}, `${i + 2} levels down, their sources (${level.length}):`),
      el("ol", { class: "sources-below" }, ...level.map((m) => el("li",
        { class: m.layer === "archived" ? "archived" : "" }, memoryLink(m),
        ` (${m.kind}, ${m.at.slice(0, 10)}, ${m.layer})`))));
  });
  if (lin.turns.length) {
    parts.push(el("p", {}, "Extracted from the conversation turn(s):"), el("ul", {},
      ...lin.turns.map((m) => el("li", {}, memoryLink(m), ` (${when(m.at)})`))));
  }
  return parts.length ? parts : [el("p", { class: "empty" }, "No gist, no sources.")];
}

function historyRows(versions) {
  return versions.map((v, i) => {
    const before = i > 0 && versions[i - 1].memory.id === v.memory.id
      ? versions[i - 1].memory.content : null;
    const text = before === null ? [v.memory.content] : diff(before, v.memory.content)
      .map(([op, t]) => op === "=" ? t : el(op === "+" ? "ins" : "del", {}, t));
    const td = (label, ...value) => el("td", { "data-label": label }, ...value);
    return el("tr", { class: "version" + (v.current ? " current" : "") },
      td("memory", "…" + v.memory.id.slice(-6)), td("version", v.version + (v.current ? " *" : "")),
      td("op", v.op), td("at", when(v.at)),
      td("who", `${v.user}/${v.agent}` + (v.actor ? ` (${v.actor})` : "")),
      td("why", v.reason || ""), td("layer", v.memory.layer),
      el("td", { class: "content" }, ...text));
  });
}

export async function openMemory(id) {
  const base = `/v1/memories/${enc(id)}`;
  const [memory, history, strength, curve, lineage, graph] = await Promise.all([
    api("GET", base), api("GET", base + "/history"), api("GET", base + "/strength"),
    api("GET", base + "/curve"), api("GET", base + "/lineage"), api("GET", base + "/graph"),
  ]);
  current = memory;
  $("detail").hidden = false;  // laid out now, so the pictures can take its width
  $("d-id").textContent = memory.id;
  $("d-content").textContent = memory.content || "(erased)";
  $("d-chips").replaceChildren(...[chip(memory.kind, "kind"), chip(memory.layer, memory.layer),
    chip(memory.priority), memory.invalid_at ? chip("superseded", "superseded") : null,
    memory.uri ? chip(memory.uri, "uri") : null, el("span", {}, when(memory.at)),
    ...entityLinks(memory)]
    .filter(Boolean));
  $("d-fields").replaceChildren(...fieldRows(memory, ["id", "content", "content_hash"]));
  $("edit-content").value = memory.content;
  if (!$("edit-kind").options.length) {
    $("edit-kind").append(...KINDS.map((k) => el("option", { value: k }, k)));
  }
  $("edit-kind").value = memory.kind;
  $("edit-uri").value = memory.uri || "";
  const erased = memory.layer === "deleted" && !memory.content;
  $("forget").hidden = memory.layer === "deleted";
  $("restore").hidden = memory.layer === "core" || erased;
  $("erase").hidden = erased;
  $("save").hidden = erased;
  $("curve").replaceChildren(strengthCurve(curve, $("curve").clientWidth));
  $("strength").replaceChildren(...strengthSummary(strength, curve));
  $("chain").replaceChildren(...chainView(lineage.chain, memory.id));
  $("lineage").replaceChildren(...lineageView(lineage));
  $("graph").replaceChildren(graph.nodes.length ? linkGraph(graph, $("graph").clientWidth)
    : el("p", { class: "empty" }, "No links."));
  $("links").replaceChildren(...graph.links.map((l) => {
    const other = l.source === memory.id ? l.target : l.source;
    const m = graph.nodes.find((n) => n.id === other) || { id: other, content: other };
    return el("li", {}, `${l.source === memory.id ? "→" : "←"} ${l.relation} `
      + `(${Number(l.weight).toFixed(2)}) `,
      memoryLink(m));
  }));
  $("history").tBodies[0].replaceChildren(...historyRows(history.versions));
}

// a new version with what was changed (content, kind, URI); nothing changed: nothing sent
export async function save() {
  const change = {};
  if ($("edit-content").value !== current.content) change.content = $("edit-content").value;
  if ($("edit-kind").value !== current.kind) change.kind = $("edit-kind").value;
  if ($("edit-uri").value.trim() !== (current.uri || "") && $("edit-uri").value.trim()) {
    change.uri = $("edit-uri").value.trim();
  }
  if (!Object.keys(change).length) return;
  await api("PATCH", `/v1/memories/${enc(current.id)}`, change);
  await openMemory(current.id);
}

export async function forget() {
  await api("DELETE", `/v1/memories/${enc(current.id)}`);
  await openMemory(current.id);
}

export async function restore() {
  await api("POST", `/v1/memories/${enc(current.id)}/restore`);
  await openMemory(current.id);
}

export async function erase() {
  const text = current.content.length > 80 ? current.content.slice(0, 79) + "…" : current.content;
  if (!await confirmed(`Delete “${text}” for good? Its content and every earlier version's `
    + "content are erased; this cannot be undone. (Forget hides it and can be undone.)",
  "Delete for good")) return;
  await api("DELETE", `/v1/memories/${enc(current.id)}?hard=true`);
  await openMemory(current.id);
}
