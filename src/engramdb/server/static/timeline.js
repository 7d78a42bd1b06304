// The timeline of the scope (GET /v1/timeline): one lane per kind; events as points, facts
// and the other kinds as spans of validity (valid_from .. invalid_at, open while they hold);
// superseded values greyed, archived ones faded. Zoom: all, a year, a month or a day.
"use strict";

import { $, api, day, el, short, svg, when } from "./util.js";

const KIND_ORDER = ["identity", "preference", "fact", "rule", "lesson", "procedure", "pending",
  "event", "emotion", "gist"];
let W = 1000;
const LEFT = 96, RIGHT = 16, TOP = 30, LANE = 16, ROWS_MAX = 6;
const state = { zoom: "all", anchor: null, now: null };
const DAY_MS = 86400000;

function windowOf(zoom, anchor) {
  const y = anchor.getUTCFullYear(), m = anchor.getUTCMonth(), d = anchor.getUTCDate();
  if (zoom === "year") return [new Date(Date.UTC(y, 0, 1)), new Date(Date.UTC(y + 1, 0, 1))];
  if (zoom === "month") return [new Date(Date.UTC(y, m, 1)), new Date(Date.UTC(y, m + 1, 1))];
  return [new Date(Date.UTC(y, m, d)), new Date(Date.UTC(y, m, d + 1))];
}

function shift(step) {
  const a = state.anchor;
  const y = a.getUTCFullYear(), m = a.getUTCMonth(), d = a.getUTCDate();
  if (state.zoom === "year") state.anchor = new Date(Date.UTC(y + step, 0, 1));
  else if (state.zoom === "month") state.anchor = new Date(Date.UTC(y, m + step, 1));
  else state.anchor = new Date(Date.UTC(y, m, d + step));
}

function ticks(start, end) {
  const span = end - start, out = [];
  let unit = "hour";
  if (span > 3 * 365 * DAY_MS) unit = "year";
  else if (span > 62 * DAY_MS) unit = "month";
  else if (span > 2 * DAY_MS) unit = "day";
  const t = new Date(start);
  if (unit === "year") t.setUTCMonth(0, 1);
  if (unit !== "hour") t.setUTCHours(0, 0, 0, 0); else t.setUTCMinutes(0, 0, 0);
  if (unit === "month") t.setUTCDate(1);
  const every = unit === "day" ? Math.max(1, Math.ceil(span / DAY_MS / 16))
    : unit === "hour" ? 2 : 1;
  while (t < end && out.length < 40) {
    if (t >= start) {
      const label = unit === "year" ? String(t.getUTCFullYear())
        : unit === "month" ? t.toISOString().slice(0, 7)
          : unit === "day" ? t.toISOString().slice(5, 10) : t.toISOString().slice(11, 16);
      out.push([new Date(t), label]);
    }
    if (unit === "year") t.setUTCFullYear(t.getUTCFullYear() + 1);
    else if (unit === "month") t.setUTCMonth(t.getUTCMonth() + 1);
    else if (unit === "day") t.setUTCDate(t.getUTCDate() + every);
    else t.setUTCHours(t.getUTCHours() + every);
  }
  return out;
}

// spans of one lane in rows that do not overlap (at most ROWS_MAX; then they share the last)
function pack(items, x) {
  const ends = [];
  return items.map((it) => {
    const [a, b] = [x(it.from), x(it.to)];
    let row = ends.findIndex((e) => e + 4 <= a);
    if (row < 0) row = ends.length < ROWS_MAX ? ends.length : ROWS_MAX - 1;
    ends[row] = Math.max(ends[row] ?? -Infinity, b);
    return row;
  });
}

function classes(it) {
  return ["mark", it.kind, it.superseded ? "superseded" : "", it.layer === "archived"
    ? "archived" : ""].join(" ").trim();
}

function timeText(it) {
  const span = it.shape === "span" ? `valid ${day(it.valid_from)} → `
    + (it.invalid_at ? day(it.invalid_at) : "now") : `at ${when(it.at)}`;
  const marks = [it.superseded ? "superseded" : "", it.layer === "archived" ? "archived" : ""]
    .filter(Boolean).join(", ");
  return `${it.kind}, ${span}${marks ? " (" + marks + ")" : ""}`;
}

function describe(it) { return `${it.content} — ${timeText(it)}`; }

// pixels per millisecond of the scale x
function scale(x) { return (x(new Date(DAY_MS)) - x(new Date(0))) / DAY_MS; }

function lanes(items, x, start, end, now) {
  const out = [];
  let y = TOP;
  const kinds = KIND_ORDER.filter((k) => items.some((it) => it.kind === k));
  for (const kind of kinds) {
    const mine = items.filter((it) => it.kind === kind).map((it) => ({ ...it,
      from: new Date(Math.max(Date.parse(it.valid_from), start)),
      to: new Date(Math.min(it.invalid_at ? Date.parse(it.invalid_at) : Math.max(now, start),
        end)) }));
    const spans = mine.filter((it) => it.shape === "span");
    const rows = pack(spans, x);
    const points = mine.filter((it) => it.shape === "point")
      .map((it) => ({ ...it, from: new Date(Date.parse(it.at) - 6 / scale(x)),
        to: new Date(Date.parse(it.at) + 6 / scale(x)) }));
    const dots = pack(points, x);
    const height = LANE * Math.max(1, ...rows.map((r) => r + 1), ...dots.map((r) => r + 1)) + 8;
    out.push(svg("text", { class: "lane-label", x: 8, y: y + 14 }, kind));
    out.push(svg("line", { class: "lane-rule", x1: LEFT, x2: W - RIGHT, y1: y + height,
      y2: y + height }));
    spans.forEach((it, i) => out.push(svg("a", { href: "#/memory/" + encodeURIComponent(it.id),
      class: classes(it), "data-id": it.id, "aria-label": describe(it) },
    svg("title", {}, describe(it)),
    svg("rect", { class: "span", x: x(it.from), y: y + 4 + rows[i] * LANE,
      width: Math.max(3, x(it.to) - x(it.from)), height: LANE - 6, rx: 4 }))));
    points.forEach((it, i) => out.push(svg("a", { href: "#/memory/" + encodeURIComponent(it.id),
      class: classes(it), "data-id": it.id, "aria-label": describe(it) },
    svg("title", {}, describe(it)),
    svg("circle", { class: "point", cx: x(new Date(it.at)), cy: y + 9 + dots[i] * LANE, r: 5 }))));
    y += height;
  }
  return [out, y];
}

// the ticks' labels that fit: one is kept only when it starts past the end of the one kept
// before it (and ends inside the picture); the others keep their line, without a label
const CHAR_PX = 7.5, LABEL_GAP = 10;  // a 12 px label's digit width, over-estimated
function spaced(all, x) {
  let free = -Infinity;
  return all.map(([t, label]) => {
    const from = x(t) + 2, to = from + CHAR_PX * label.length;
    if (from < free || to > W) return [t, null];
    free = to + LABEL_GAP;
    return [t, label];
  });
}

function draw(items, start, end, now) {
  const x = (t) => LEFT + (W - LEFT - RIGHT) * (t - start) / Math.max(end - start, 1);
  const [marks, bottom] = lanes(items, x, start, end, now);
  const height = bottom + 10;
  const axis = spaced(ticks(start, end), x).flatMap(([t, label]) => [
    svg("line", { class: "tick", x1: x(t), x2: x(t), y1: TOP - 6, y2: bottom }),
    label ? svg("text", { class: "tick-label", x: x(t) + 2, y: TOP - 10 }, label) : null])
    .filter(Boolean);
  const nowLine = now >= start && now <= end ? [svg("line", { class: "now", x1: x(now),
    x2: x(now), y1: TOP - 6, y2: bottom }), svg("text", { class: "now-label", x: x(now) - 4,
    y: bottom + 9, "text-anchor": "end" }, "now")] : [];
  return svg("svg", { id: "timeline-svg", class: "chart timeline", viewBox: `0 0 ${W} ${height}`,
    width: W, height,
    role: "group", "aria-label": `timeline from ${day(start.toISOString())} to `
      + `${day(end.toISOString())}` }, ...axis, ...nowLine, ...marks);
}

function range(items, now) {
  if (state.zoom !== "all") return windowOf(state.zoom, state.anchor);
  const times = items.flatMap((it) => [Date.parse(it.at), it.invalid_at ? Date.parse(
    it.invalid_at) : NaN]).filter((t) => !Number.isNaN(t));
  const lo = Math.min(...times, now.getTime()), hi = Math.max(...times, now.getTime());
  const pad = Math.max((hi - lo) * 0.04, DAY_MS / 2);
  return [new Date(lo - pad), new Date(hi + pad)];
}

export async function loadTimeline() {
  const p = new URLSearchParams({ limit: "2000" });
  if (state.zoom !== "all") {
    state.anchor = state.anchor || state.now || new Date();
    const [a, b] = windowOf(state.zoom, state.anchor);
    p.set("since", a.toISOString());
    p.set("until", b.toISOString());
  }
  const data = await api("GET", "/v1/timeline?" + p.toString());
  const now = new Date(data.now);
  state.now = now;
  const [start, end] = range(data.items, now);
  W = Math.max($("tl-chart").clientWidth - 12, 320);  // the screen's width: no sideways scroll
  $("tl-label").textContent = state.zoom === "all" ? "everything"
    : state.zoom === "year" ? String(start.getUTCFullYear())
      : state.zoom === "month" ? start.toISOString().slice(0, 7) : day(start.toISOString());
  $("tl-prev").disabled = $("tl-next").disabled = state.zoom === "all";
  for (const b of document.querySelectorAll("[data-zoom]")) {
    b.setAttribute("aria-pressed", String(b.dataset.zoom === state.zoom));
  }
  $("tl-count").textContent = `${data.items.length} memories`
    + (data.truncated ? " (the newest; more are stored)" : "");
  $("tl-chart").replaceChildren(data.items.length ? draw(data.items, start, end, now)
    : el("p", { class: "empty" }, "Nothing in this window."));
  $("tl-list").replaceChildren(...data.items.map((it) => el("li", { class: classes(it) },
    el("a", { class: "open", href: "#/memory/" + encodeURIComponent(it.id) },
      short(it.content, 80)), " — " + timeText(it))));
}

export function wireTimeline(guard) {
  for (const b of document.querySelectorAll("[data-zoom]")) {
    b.addEventListener("click", () => { state.zoom = b.dataset.zoom; guard(loadTimeline); });
  }
  $("tl-prev").addEventListener("click", () => { shift(-1); guard(loadTimeline); });
  $("tl-next").addEventListener("click", () => { shift(1); guard(loadTimeline); });
}
