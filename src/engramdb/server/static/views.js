// Read-only views of a scope: its working-memory sessions (GET /v1/sessions, /v1/sessions/{id}),
// its goals (GET /v1/goals), what an agent boots with (GET /v1/boot), the context block for a
// message (POST /v1/context with track false: looking counts no memory as used) and its stats
// (GET /v1/stats) as tables.
"use strict";

import { $, api, chip, el, enc, memoryLink, when } from "./util.js";

function rows(table, pairs) {
  $(table).replaceChildren(...pairs.map(([name, value]) => el("tr", {}, el("th", {}, name),
    el("td", {}, value))));
}

let asked = 0;  // the latest loadSessions call: an earlier one's answer never shows over it

export async function loadSessions(id) {
  const mine = ++asked;
  const { sessions } = await api("GET", "/v1/sessions");
  if (mine !== asked) return;
  $("s-list").replaceChildren(...(sessions.length ? sessions.map((s) => el("li", {},
    el("a", { class: "chip" + (s === id ? " on" : ""), href: "#/sessions/" + enc(s) }, s)))
    : [el("li", { class: "empty" }, "No working-memory session yet (they start with a turn: "
      + "POST /v1/sessions/{id}/turns, `engramdb session add`, or the agent).")]));
  $("s-page").hidden = true;
  if (!id) return;
  const s = await api("GET", "/v1/sessions/" + enc(id));
  if (mine !== asked) return;
  $("s-title").textContent = s.id;
  $("s-facts").textContent = `${s.turns} turns, ${s.tokens} of ${s.settings.budget} tokens in `
    + `the window${s.over_budget ? " (over budget)" : ""}; started ${when(s.created_at)}`
    + (s.ended_at ? `, ended ${when(s.ended_at)}` : ", open");
  $("s-summary").textContent = s.summary || "No summary yet: every turn still fits the window.";
  $("s-turns").replaceChildren(el("tr", { class: "head" }, el("th", {}, "#"),
    el("th", {}, "who"), el("th", {}, "at"), el("th", {}, "said")), ...s.window.map((t) =>
    el("tr", {}, el("td", { "data-label": "#" }, t.seq),
      el("td", { "data-label": "who" }, t.role + (t.pinned ? " (pinned)" : "")),
      el("td", { "data-label": "at" }, when(t.at)), el("td", { class: "content" }, t.content))));
  $("s-prompt").textContent = s.prompt;
  $("s-page").hidden = false;
}

function goalRow(g) {
  const td = (label, value) => el("td", { "data-label": label }, value);
  return el("tr", { class: g.status === "active" ? "current" : "" },
    el("td", {}, g.title), td("status", chip(g.status, g.status)),
    td("constraints", g.constraints.join("; ")), td("open loops", g.open_loops.join("; ")),
    td("evidence", g.evidence.join("; ")), td("since", when(g.created_at)));
}

export async function loadGoals() {
  const { goals, active } = await api("GET", "/v1/goals");
  $("g-active").replaceChildren(active ? el("span", {}, "Working on: ",
    el("strong", {}, active.title)) : el("span", { class: "note" }, "No active goal."));
  $("goals").tBodies[0].replaceChildren(...(goals.length ? goals.map(goalRow)
    : [el("tr", {}, el("td", { colspan: 6, class: "empty" }, "No goals yet."))]));
}

export async function loadBoot() {
  const b = await api("GET", "/v1/boot");
  $("boot-facts").textContent = `${b.memories.length} memories, ${b.tokens} tokens`
    + (b.truncated ? " (cut to the budget)" : "")
    + (b.missing.length ? `; listed but missing: ${b.missing.join(", ")}` : "");
  $("boot").replaceChildren(...b.memories.map((m) => el("li", {}, chip(m.kind, "kind"),
    m.uri ? chip(m.uri, "uri") : null, memoryLink(m))),
  ...b.warnings.map((w) => el("li", { class: "note" }, w)),
  ...(b.still_true.length ? [el("li", { class: "note" }, el("a", { href: "#/review" },
    b.still_true_title), ` ${b.still_true.length} to ask about`)] : []));
}

export async function showContext() {
  const query = $("c-query").value;
  const c = await api("POST", "/v1/context", { query, budget: Number($("c-budget").value) || 800,
    track: false });
  $("c-facts").textContent = `${c.tokens} of ${c.budget} tokens (${c.encoding}); sections: `
    + c.sections.map((s) => `${s.title} ${s.tokens}`).join(", ")
    + (c.cut.length ? `; left out to fit: ${c.cut.length}` : "");
  $("c-block").textContent = c.text;
  $("c-block").hidden = false;
}

export async function loadStats() {
  const s = await api("GET", "/v1/stats");
  const layerWords = { core: "core (searched)", archived: "archived (woken by a cue)",
    cold: "cold (searched on demand)", deleted: "forgotten" };
  rows("stats-layers", [...Object.entries(s.by_layer).map(([n, v]) => [layerWords[n] || n, v]),
    ["total", s.total]]);
  rows("stats-kinds", Object.entries(s.by_kind).sort((a, b) => b[1] - a[1]));
  rows("stats", [["scope", `${s.user} / ${s.agent}`], ["changes logged", s.events],
    ["embedder", `${s.embedder} (${s.dimensions} dimensions)`],
    ["vectors still to compute", s.pending_vectors], ["stored at", s.path]]);
}
