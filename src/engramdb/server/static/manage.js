// Managing memories: the Add page (POST /v1/memories: says what the write did and why) and
// Browse (GET /v1/memories filtered by text, kind, URI prefix, time and layer) with bulk
// forget, restore and hard delete of the selected rows (one DELETE or restore per memory;
// the hard delete asks first).
"use strict";

import { $, api, chip, confirmed, el, enc, memoryLink, when } from "./util.js";

export const KINDS = ["identity", "preference", "fact", "event", "lesson", "rule", "procedure",
  "pending", "gist", "emotion"];
const ACTIONS = { add: "Remembered", update: "Updated", supersede: "Superseded an older value",
  noop: "Already remembered: nothing changed", reject: "Not remembered" };
let nextOffset = null;

export async function addMemory() {
  const body = { content: $("a-content").value };
  if ($("a-kind").value) body.kind = $("a-kind").value;
  if ($("a-uri").value.trim()) body.uri = $("a-uri").value.trim();
  if ($("a-at").value) body.at = $("a-at").value + ":00Z";
  const r = await api("POST", "/v1/memories", body);
  $("add-result").replaceChildren(el("div", { class: "card added " + r.action },
    el("p", {}, el("strong", {}, ACTIONS[r.action] || r.action), ` (rule ${r.rule})`),
    el("p", {}, chip(r.memory.kind, "kind"), " ", memoryLink(r.memory))));
  if (r.action !== "reject") $("a-content").value = "";
}

function browseQuery(offset) {
  const p = new URLSearchParams({ limit: "50", offset: String(offset) });
  if ($("b-text").value.trim()) p.set("contains", $("b-text").value.trim());
  if ($("b-kind").value) p.append("kind", $("b-kind").value);
  if ($("b-uri").value) p.set("uri_prefix", $("b-uri").value);
  if ($("b-since").value) p.set("since", $("b-since").value + "T00:00:00Z");
  if ($("b-until").value) p.set("until", $("b-until").value + "T00:00:00Z");
  p.append("layer", $("b-layer").value);
  if ($("b-newest").checked) p.set("newest_first", "true");
  return p;
}

function row(m) {
  const box = el("input", { type: "checkbox", class: "pick", "data-id": m.id,
    "aria-label": "select: " + (m.content || m.id) });
  box.addEventListener("change", selectionChanged);
  return el("tr", {}, el("td", {}, box), el("td", {}, when(m.at)), el("td", {}, m.kind),
    el("td", {}, m.uri || ""), el("td", {}, memoryLink(m)));
}

function picked() { return [...document.querySelectorAll("#list .pick:checked")]; }

function selectionChanged() {
  const n = picked().length, all = document.querySelectorAll("#list .pick").length;
  $("b-selected").textContent = n ? `${n} selected` : "none selected";
  for (const id of ["b-forget", "b-restore", "b-erase"]) $(id).disabled = n === 0;
  $("b-all").checked = n > 0 && n === all;
}

let asked = 0;  // the latest listing asked for: an earlier answer arriving late is dropped

export async function browse(offset) {
  const p = browseQuery(offset);
  const mine = ++asked;
  const [page, count] = await Promise.all([api("GET", "/v1/memories?" + p.toString()),
    offset === 0 ? api("GET", "/v1/count?" + countQuery(p)) : null]);
  if (mine !== asked) return;
  const body = $("list").tBodies[0];
  const rows = page.items.map(row);
  if (offset === 0) body.replaceChildren(...rows); else body.append(...rows);
  if (count) {
    $("b-count").textContent = count.count === 1 ? "1 memory matches"
      : `${count.count} memories match`;
  }
  if (offset === 0 && !rows.length) {
    body.append(el("tr", {}, el("td", { colspan: 5, class: "empty" }, "Nothing matches.")));
  }
  nextOffset = page.next_offset;
  $("more").hidden = nextOffset === null;
  selectionChanged();
}

function countQuery(p) {
  const q = new URLSearchParams(p);
  for (const name of ["limit", "offset", "newest_first"]) q.delete(name);
  return q.toString();
}

export function more() { return browse(nextOffset); }

export function selectAll() {
  for (const box of document.querySelectorAll("#list .pick")) box.checked = $("b-all").checked;
  selectionChanged();
}

async function each(ids, call) {
  let done = 0;
  try {
    for (const id of ids) { await call(id); done++; }
  } finally {
    await browse(0);
  }
  return done;
}

export async function bulk(action) {
  const ids = picked().map((b) => b.dataset.id);
  if (!ids.length) return;
  if (action === "erase" && !await confirmed(`Delete ${ids.length} memories for good? Their `
    + "content and every earlier version's content are erased; this cannot be undone.",
  `Delete ${ids.length} for good`)) return;
  const call = {
    forget: (id) => api("DELETE", `/v1/memories/${enc(id)}`),
    restore: (id) => api("POST", `/v1/memories/${enc(id)}/restore`),
    erase: (id) => api("DELETE", `/v1/memories/${enc(id)}?hard=true`),
  }[action];
  const words = { forget: "forgotten", restore: "restored", erase: "deleted for good" };
  const done = await each(ids, call);
  $("b-done").textContent = `${done} ${words[action]}.`;
}

export function wireManage(guard) {
  for (const kind of KINDS) {
    $("b-kind").append(el("option", { value: kind }, kind));
    $("a-kind").append(el("option", { value: kind }, kind));
  }
  $("add-form").addEventListener("submit", (e) => { e.preventDefault(); guard(addMemory); });
  $("browse-form").addEventListener("submit", (e) => { e.preventDefault(); guard(() => browse(0)); });
  $("more").addEventListener("click", () => guard(more));
  $("b-all").addEventListener("change", selectAll);
  for (const action of ["forget", "restore", "erase"]) {
    $("b-" + action).addEventListener("click", () => guard(() => bulk(action)));
  }
}
