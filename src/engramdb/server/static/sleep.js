// The sleep page: what the last sleeps changed (GET /v1/sleeps, read from the event log) and
// a button to run one (POST /v1/sleep), with its report.
"use strict";

import { $, api, el, memoryLink, when } from "./util.js";

const PHASES = ["decay", "tidy", "lessons", "consolidate", "govern", "other"];

function runRow(run) {
  const phases = PHASES.filter((p) => run.phases[p]).map((p) => el("li", {},
    el("strong", {}, p), ": " + Object.entries(run.phases[p]).map(([op, n]) => `${n} ${op}`)
      .join(", ")));
  return el("li", { class: "sleep-run" }, el("h3", {}, when(run.at)),
    el("p", {}, `${run.changes} change(s) to ${run.memories} memories`),
    el("ul", { class: "phases" }, ...phases),
    el("details", {}, el("summary", {}, "memories changed"),
      el("ul", {}, ...run.ids.map((id) => el("li", {}, memoryLink({ id }, id))))));
}

export async function loadSleeps() {
  const log = await api("GET", "/v1/sleeps?limit=10");
  $("sleep-last").textContent = log.last_at ? `Last sleep: ${when(log.last_at)}.`
    : "This scope has not slept yet.";
  $("sleep-log").replaceChildren(...(log.sleeps.length ? log.sleeps.map(runRow)
    : [el("li", { class: "empty" }, "No sleep has changed anything yet.")]));
}

export async function runSleep() {
  const report = await api("POST", "/v1/sleep", {});
  const rows = report.phases.map((p) => el("tr", {}, el("td", {}, p.phase),
    el("td", {}, p.examined), el("td", {}, Object.entries(p.counts)
      .map(([k, n]) => `${n} ${k}`).join(", ") || "—"),
    el("td", { class: "note" }, p.note || "")));
  $("sleep-report").replaceChildren(
    el("p", {}, `Slept at ${when(report.at)} (${report.mode}, ${report.visited} memories `
      + "looked at)"),
    el("div", { class: "scroll" }, el("table", {}, el("tr", {}, el("th", {}, "phase"),
      el("th", {}, "examined"), el("th", {}, "changed"), el("th", {}, "note")), ...rows)));
  await loadSleeps();
}
