// The engramdb web page: a thin client of the /v1 API. Pages are addressed by the URL's hash
// (#/search, #/timeline, #/browse, #/entity/<name>, #/sleep, #/stats, #/memory/<id>), so the browser's back
// button, links and the keyboard all work. The key stays in this tab's sessionStorage.
"use strict";

import { openEntity } from "./entity.js";
import { forget, openMemory, restore, save } from "./memory.js";
import { search } from "./search.js";
import { loadSleeps, runSleep } from "./sleep.js";
import { loadTimeline, wireTimeline } from "./timeline.js";
import { $, api, el, getKey, guard, memoryLink, setKey, when } from "./util.js";

const KINDS = ["identity", "preference", "fact", "event", "lesson", "rule", "procedure",
  "pending", "gist", "emotion"];
const VIEWS = ["search", "timeline", "browse", "entity", "sleep", "stats", "memory"];
let nextOffset = null;
let lastList = "#/search";

async function login(secret) {
  setKey(secret);
  try {
    const me = await api("GET", "/v1/me");
    $("who").textContent = `${me.user} / ${me.agent} (${me.role}, key ${me.key.id})`;
    $("login-view").hidden = true;
    $("app").hidden = false;
    $("logout").hidden = false;
    route();
  } catch (err) {
    setKey("");
    $("login-view").hidden = false;
    $("app").hidden = true;
    $("who").textContent = String(err.message);
  }
}

function logout() {
  setKey("");
  location.hash = "";
  location.reload();
}

function show(view) {
  for (const name of VIEWS) $(name === "memory" ? "detail" : name + "-view").hidden = name !== view;
  for (const tab of document.querySelectorAll(".tab")) {
    const on = tab.dataset.view === view;
    tab.classList.toggle("active", on);
    if (on) tab.setAttribute("aria-current", "page"); else tab.removeAttribute("aria-current");
  }
}

function route() {
  if (!getKey() || (location.hash && !location.hash.startsWith("#/"))) return;
  const [, view, arg] = (location.hash || "#/search").match(/^#\/([a-z]+)\/?(.*)$/) || [];
  const name = VIEWS.includes(view) ? view : "search";
  if (name === "memory") {  // shown once loaded: the page never shows another memory's parts
    guard(async () => {
      await openMemory(decodeURIComponent(arg));
      show(name);
      $("d-content").focus();
    });
    return;
  }
  show(name);
  lastList = location.hash || "#/search";
  if (name === "timeline") guard(loadTimeline);
  if (name === "entity") guard(() => openEntity(decodeURIComponent(arg || "")));
  if (name === "sleep") guard(loadSleeps);
  if (name === "stats") guard(loadStats);
  if (name === "search") $("q").focus();
}

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
    el("td", {}, memoryLink(m))));
  const body = $("list").tBodies[0];
  if (offset === 0) body.replaceChildren(...rows); else body.append(...rows);
  nextOffset = page.next_offset;
  $("more").hidden = nextOffset === null;
}

async function loadStats() {
  const s = await api("GET", "/v1/stats");
  $("stats").replaceChildren(...Object.entries(s).map(([n, v]) => el("tr", {}, el("th", {}, n),
    el("td", {}, typeof v === "object" ? JSON.stringify(v) : v))));
}

function onKey(e) {
  if (e.key === "Escape" && !$("detail").hidden) {
    e.preventDefault();
    location.hash = lastList;
  } else if (e.key === "/" && !["INPUT", "TEXTAREA", "SELECT"].includes(
    document.activeElement?.tagName)) {
    e.preventDefault();
    location.hash = "#/search";
    $("q").focus();
  }
}

for (const kind of KINDS) $("b-kind").append(el("option", { value: kind }, kind));
$("login-form").addEventListener("submit", (e) => { e.preventDefault(); login($("key").value); });
$("logout").addEventListener("click", logout);
$("search-form").addEventListener("submit", (e) => { e.preventDefault(); guard(search); });
$("browse-form").addEventListener("submit", (e) => { e.preventDefault(); guard(() => browse(0)); });
$("more").addEventListener("click", () => guard(() => browse(nextOffset)));
$("save").addEventListener("click", () => guard(save));
$("forget").addEventListener("click", () => guard(forget));
$("restore").addEventListener("click", () => guard(restore));
$("entity-form").addEventListener("submit", (e) => {
  e.preventDefault();
  location.hash = "#/entity/" + encodeURIComponent($("e-name").value.trim());
});
$("run-sleep").addEventListener("click", () => guard(runSleep));
$("back").addEventListener("click", () => { location.hash = lastList; });
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => { location.hash = "#/" + tab.dataset.view; });
}
wireTimeline(guard);
window.addEventListener("hashchange", route);
document.addEventListener("keydown", onKey);
if (getKey()) login(getKey());
