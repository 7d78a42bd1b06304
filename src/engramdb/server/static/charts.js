// Pictures of one memory: its strength curve (GET /v1/memories/{id}/curve) and its link
// graph (GET /v1/memories/{id}/graph), both SVG built with DOM calls.
"use strict";

import { day, short, svg } from "./util.js";

const RELATIONS = ["related", "caused", "reminds", "evolved", "contradicts", "supersedes",
  "gist_of", "derived_from", "associated"];

export function strengthCurve(c, width) {
  const W = Math.max(Math.round(width || 640), 300), H = 240, L = 40, R = 12, T = 16, B = 34;
  const t0 = Date.parse(c.points[0].at), t1 = Date.parse(c.points[c.points.length - 1].at);
  const x = (iso) => L + (W - L - R) * (Date.parse(iso) - t0) / Math.max(t1 - t0, 1);
  const y = (w) => T + (H - T - B) * (1 - w);
  const line = (pts) => pts.map((p) => `${x(p.at).toFixed(1)},${y(p.weight).toFixed(1)}`)
    .join(" ");
  const past = c.points.filter((p) => !p.projected);
  const future = [past[past.length - 1], ...c.points.filter((p) => p.projected)]
    .filter(Boolean);
  const parts = [
    ...[0, 0.5, 1].flatMap((w) => [
      svg("line", { class: "gridline", x1: L, x2: W - R, y1: y(w), y2: y(w) }),
      svg("text", { class: "axis-label", x: L - 6, y: y(w) + 4, "text-anchor": "end" },
        String(w))]),
    svg("line", { class: "archive-line", x1: L, x2: W - R, y1: y(c.archive_below),
      y2: y(c.archive_below) }),
    svg("text", { class: "archive-label", x: W - R, y: y(c.archive_below) - 4,
      "text-anchor": "end" }, `archive below ${c.archive_below}`),
    svg("polyline", { class: "curve past", points: line(past) }),
    svg("polyline", { class: "curve projected", points: line(future) }),
    svg("line", { class: "now", x1: x(c.now), x2: x(c.now), y1: T, y2: H - B }),
    svg("text", { class: "now-label", x: x(c.now) + 3, y: T + 10 }, "now"),
    ...dateLabels([c.points[0].at, c.now, c.points[c.points.length - 1].at], x)
      .map(([iso, anchor]) => svg("text", { class: "axis-label", x: x(iso), y: H - B + 16,
        "text-anchor": anchor }, day(iso))),
    ...c.uses.flatMap((u) => [
      svg("line", { class: "use-mark", x1: x(u.at), x2: x(u.at), y1: H - B, y2: H - B + 6 }),
      svg("circle", { class: "use", cx: x(u.at), cy: y(u.weight), r: 3.5 },
        svg("title", {}, `used ${u.at.slice(0, 16).replace("T", " ")}: weight ${u.weight}`))]),
    ...c.changes.filter((ch) => ["archive", "restore", "wake", "forget", "consolidate"]
      .includes(ch.op)).map((ch) => svg("text", { class: "change-label", x: x(ch.at),
      y: H - 4, "text-anchor": "middle" }, ch.op)),
  ];
  if (c.archive_at) {
    parts.push(svg("line", { class: "fade-at", x1: x(c.archive_at), x2: x(c.archive_at),
      y1: T, y2: H - B }));
  }
  return svg("svg", { id: "curve-svg", class: "chart curve-chart", viewBox: `0 0 ${W} ${H}`,
    role: "img", "aria-label": `strength over time: now ${c.weight_now}, `
      + (c.archive_at ? `projected to fall below the archive line on ${day(c.archive_at)}`
        : "not projected to reach the archive line") }, ...parts);
}

// the first, "now" and the last date under the curve, leaving out one too close to another
function dateLabels(dates, x) {
  const [first, now, last] = dates.map((d) => x(d));
  const out = [[dates[0], "start"], [dates[2], "end"]];
  if (now - first > 90 && last - now > 90) out.push([dates[1], "middle"]);
  return out;
}

export function linkGraph(g, width) {
  const W = Math.max(Math.round(width || 640), 300), H = 340, cx = W / 2, cy = H / 2;
  const rx = Math.min(W / 2 - 70, 220), ry = 125;
  const n = g.nodes.length;
  const at = new Map([[g.centre.id, [cx, cy]]]);
  g.nodes.forEach((node, i) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / Math.max(n, 1);
    at.set(node.id, [cx + rx * Math.cos(a), cy + ry * Math.sin(a)]);
  });
  const seen = new Map();  // several links between one pair: their labels one under another
  const edges = g.links.map((l) => {
    const [x1, y1] = at.get(l.source), [x2, y2] = at.get(l.target);
    const pair = [l.source, l.target].sort().join(" ");
    const nth = seen.get(pair) || 0;
    seen.set(pair, nth + 1);
    const rel = RELATIONS.includes(l.relation) ? l.relation : "related";
    // a link to the centre: its label nearer the neighbour, away from the centre's own label
    const f = l.source === g.centre.id ? 0.6 : l.target === g.centre.id ? 0.4 : 0.5;
    const arrow = l.source === g.centre.id ? " →" : l.target === g.centre.id ? " ←" : "";
    return [svg("g", { class: "edge rel-" + rel },
      svg("line", { x1, y1, x2, y2, "stroke-width": 1 + 3 * l.weight })),
    svg("text", { class: "edge-label", x: x1 + f * (x2 - x1), y: y1 + f * (y2 - y1) - 4 + 13 * nth,
      "text-anchor": "middle" }, l.relation + arrow)];
  });
  const node = (m, centre) => {
    const [x, y] = at.get(m.id);
    const cls = "node" + (centre ? " centre" : "") + (m.layer === "archived" ? " archived" : "")
      + (m.current ? "" : " superseded");
    const label = svg("text", { class: "node-label", x, y: y + (centre ? 30 : 22),
      "text-anchor": "middle" }, short(m.content, W < 500 ? 14 : 24));
    const dot = svg("circle", { cx: x, cy: y, r: centre ? 14 : 9 });
    const title = svg("title", {}, `${m.kind}: ${m.content}`);
    return centre ? svg("g", { class: cls }, title, dot, label)
      : svg("a", { href: "#/memory/" + encodeURIComponent(m.id), class: cls,
        "data-id": m.id }, title, dot, label);
  };
  return svg("svg", { id: "graph-svg", class: "chart graph-chart", viewBox: `0 0 ${W} ${H}`,
    role: "group", "aria-label": `${n} linked memories` }, ...edges.map((e) => e[0]),
  ...edges.map((e) => e[1]),
  ...g.nodes.map((m) => node(m, false)), node(g.centre, true));
}

// a word diff (characters for CJK) of two versions' texts: [[op, text]], op in = - +
export function diff(a, b) {
  const tok = (s) => (s || "").match(/[\u3400-\u9fff\uf900-\ufaff\u3000-\u303f\uff00-\uffef]|[\p{L}\p{N}_'’-]+|\s+|./gu) || [];
  const x = tok(a), y = tok(b);
  if (x.length * y.length > 250000) return [["-", a], ["+", b]];
  const m = x.length, n = y.length;
  const lcs = Array.from({ length: m + 1 }, () => new Uint16Array(n + 1));
  for (let i = m - 1; i >= 0; i--) {
    for (let j = n - 1; j >= 0; j--) {
      lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out = [];
  const push = (op, t) => {
    if (out.length && out[out.length - 1][0] === op) out[out.length - 1][1] += t;
    else out.push([op, t]);
  };
  let i = 0, j = 0;
  while (i < m && j < n) {
    if (x[i] === y[j]) { push("=", x[i]); i++; j++; }
    else if (lcs[i + 1][j] >= lcs[i][j + 1]) push("-", x[i++]);
    else push("+", y[j++]);
  }
  while (i < m) push("-", x[i++]);
  while (j < n) push("+", y[j++]);
  return out;
}
