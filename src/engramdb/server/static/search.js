// Search: the hits of POST /v1/recall, the same sentence from several memories shown once
// (a turn and the fact extracted from it: "2 sources"), the relevance in words and a bar,
// each hit's why in one line (hit.why) and its verdict (approved or questionable, the reasons
// on hover) with its score's terms behind a toggle, the query's
// time window and routing (hits.plan), and the abstained state. A search here only looks
// (track false): the hits it shows are not counted as used, so nothing is strengthened.
"use strict";

import { $, api, chip, el, memoryLink, svg, when } from "./util.js";

const LEG_WORDS = { bm25: "words", dense: "meaning", time: "time", assoc: "association",
  uri: "URI", slot: "slot", graph: "links", path: "path" };
const WEAK = 0.3;  // a hit under this share of the best one is listed as a weaker match

export function sameText(text) {
  return (text || "").normalize("NFKC").toLowerCase().replace(/\s+/g, " ")
    .replace(/[\s.。!！?？,，;；:：]+$/u, "").trim();
}

export function groupHits(hits) {
  const groups = new Map();
  for (const h of hits) {
    const k = sameText(h.memory.content);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(h);
  }
  return [...groups.values()];
}

function relevanceWords(rel) {
  if (rel >= 0.8) return "best match";
  if (rel >= 0.5) return "strong match";
  if (rel >= WEAK) return "partial match";
  return "weak match";
}

function bar(rel) {
  return svg("svg", { class: "bar", viewBox: "0 0 100 6", preserveAspectRatio: "none",
    role: "img", "aria-label": `relevance ${Math.round(rel * 100)}%` },
  svg("rect", { class: "bar-bg", x: 0, y: 0, width: 100, height: 6, rx: 3 }),
  svg("rect", { class: "bar-fill", x: 0, y: 0, width: Math.max(2, rel * 100), height: 6, rx: 3 }));
}

function legsInWords(e) {
  const legs = Object.entries(e.legs).map(([n, l]) => `${LEG_WORDS[n] || n} #${l.rank}`);
  return legs.length ? "matched by " + legs.join(", ") : "no leg";
}

function explanation(e) {
  const legs = Object.entries(e.legs).map(([n, l]) => `${n} #${l.rank} (${l.score})`);
  return `${legs.join(", ") || "no leg"} → fused ${e.fused}, strength ${e.strength}, `
    + `final ${e.final}`;
}

function terms(e) {
  const all = Object.entries(e.terms).map(([n, v]) => `${n} ${v}`);
  return all.length ? el("div", {}, "terms: " + all.join(", ")) : null;
}

// does it still hold? (recall/judge.py): the label and confidence, the reasons on hover
function verdictChip(v) {
  const c = chip(`${v.label} ${v.confidence.toFixed(2)}`, "verdict " + v.label);
  c.setAttribute("title", v.text);
  return c;
}

// a hit and those the server collapsed into it (recall/collapse.py: a turn and its fact)
const sources = (group) => group.reduce((n, g) => n + 1 + (g.explanation.terms.collapsed || 0), 0);

function hitItem(group, top) {
  const h = group[0];
  const count = sources(group);
  const rel = top > 0 ? h.score / top : 0;
  const kinds = [...new Set(group.map((g) => g.memory.kind))].join(" + ");
  const notes = h.explanation.notes.length ? h.explanation.notes.join("; ") : "";
  return el("li", { class: "hit" + (rel < WEAK ? " weak" : "") },
    el("div", { class: "hit-head" }, memoryLink(h.memory),
      count > 1 ? chip(`${count} sources`, "sources") : null),
    el("div", { class: "relevance" }, bar(rel),
      el("span", { class: "rel-words" }, `${relevanceWords(rel)}`
        + ` · strength ${Math.round(h.explanation.strength * 100)}%`)),
    el("div", { class: "why" }, h.why || legsInWords(h.explanation)),
    el("div", { class: "meta" }, chip(kinds, "kind"), h.woken ? chip("woken from the archive",
      "woken") : null, h.verdict ? verdictChip(h.verdict) : null,
    el("span", {}, when(h.memory.at)),
    group.length > 1 ? el("span", { class: "also" }, "also: ",
      ...group.slice(1).map((g) => memoryLink(g.memory, g.memory.kind))) : null),
    el("details", { class: "terms" }, el("summary", {}, "score details"),
      el("div", {}, `score ${h.score} · ${legsInWords(h.explanation)} · `
        + explanation(h.explanation)),
      terms(h.explanation),
      notes ? el("div", { class: "note" }, notes) : null));
}

function planLine(plan, hits) {
  const parts = [];
  if (plan.routing) parts.push(el("span", {}, chip(plan.routing.mode, "route"), " ",
    plan.routing.reason));
  if (plan.window) {
    parts.push(el("span", {}, chip("time", "route"), ` ${plan.window.label}`
      + (plan.window.applied ? ", applied as a filter" : ", not applied")));
  }
  if (plan.intent) parts.push(el("span", {}, chip(plan.intent, "route"),
    ` preset ${plan.preset || "default"}`));
  const left = Object.entries(plan.filtered || {}).map(([why, n]) => `${n} ${why}`);
  if (left.length) parts.push(el("span", {}, "left out: " + left.join(", ")));
  for (const note of plan.notes || []) parts.push(el("span", { class: "note" }, note));
  if (hits.note && !hits.abstained) parts.push(el("span", { class: "note" }, hits.note));
  return parts.map((p) => el("li", {}, p));
}

export async function search() {
  const query = $("q").value;
  // track false: looking is not using; a search from the page strengthens nothing
  const hits = await api("POST", "/v1/recall", { query, k: Number($("k").value) || 10,
    track: false });
  const groups = groupHits(hits.hits);
  const top = hits.hits.length ? hits.hits[0].score : 0;
  const strong = groups.filter((g) => top > 0 && g[0].score / top >= WEAK);
  const weak = groups.filter((g) => !(top > 0 && g[0].score / top >= WEAK));
  $("plan").replaceChildren(...planLine(hits.plan || {}, hits));
  $("abstained").hidden = !hits.abstained;
  $("abstained").replaceChildren(el("strong", {}, "No confident answer. "),
    hits.note || "Nothing stored matches well enough.");
  $("search-note").textContent = hits.abstained ? ""
    : `${groups.length} result(s) from ${hits.hits.length} memories`;
  $("results").replaceChildren(...strong.map((g) => hitItem(g, top)));
  $("weaker").hidden = weak.length === 0;
  $("weaker-count").textContent = `${weak.length} weaker match(es)`;
  $("weaker-list").replaceChildren(...weak.map((g) => hitItem(g, top)));
}
