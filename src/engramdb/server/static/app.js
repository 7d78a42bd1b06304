// The engramdb web page: a thin client of the /v1 API. Pages are addressed by the URL's hash
// (#/search, #/add, #/browse, #/timeline, #/entity/<name>, #/sessions/<id>, #/goals,
// #/context, #/review, #/sleep, #/stats, #/memory/<id>), so the browser's back button, links
// and the keyboard all work. The key (and the scope an admin key switched to) stay in this tab's
// sessionStorage.
"use strict";

import { loadEntities, openEntity } from "./entity.js";
import { browse, wireManage } from "./manage.js";
import { erase, forget, openMemory, restore, save } from "./memory.js";
import { loadReview } from "./review.js";
import { search } from "./search.js";
import { loadSleeps, runSleep } from "./sleep.js";
import { loadTimeline, wireTimeline } from "./timeline.js";
import { $, api, el, getKey, getScope, guard, setKey, setScope } from "./util.js";
import { loadBoot, loadGoals, loadSessions, loadStats, showContext } from "./views.js";

const VIEWS = ["search", "add", "browse", "timeline", "entity", "sessions", "goals", "context",
  "review", "sleep", "stats", "memory"];
let lastList = "#/search";
let me = null;

async function login(secret) {
  setKey(secret);
  try {
    me = await api("GET", "/v1/me");
    $("login-view").hidden = true;
    $("app").hidden = false;
    $("logout").hidden = false;
    if (me.role === "admin") await loadScopes();
    showWho();
    route();
  } catch (err) {
    setKey("");
    setScope(null);
    $("login-view").hidden = false;
    $("app").hidden = true;
    $("who").textContent = String(err.message);
  }
}

function showWho() {
  const s = getScope() || me;
  $("who").textContent = `${s.user} / ${s.agent} (${me.role}, key ${me.key.id})`;
}

// an admin key may act on any scope: the scopes that hold memories, and the key's own
async function loadScopes() {
  const { scopes } = await api("GET", "/v1/scopes");
  const own = { user: me.user, agent: me.agent };
  const all = [own, ...scopes.filter((s) => s.user !== own.user || s.agent !== own.agent)];
  const current = getScope() || own;
  $("scope").replaceChildren(...all.map((s) => el("option", {
    value: JSON.stringify(s), selected: s.user === current.user && s.agent === current.agent,
  }, `${s.user} / ${s.agent}`)));
  $("scope-switch").hidden = false;
}

function switchScope() {
  const s = JSON.parse($("scope").value);
  setScope(s.user === me.user && s.agent === me.agent ? null : s);
  showWho();
  if (location.hash.startsWith("#/memory/")) location.hash = "#/browse"; else route();
}

function logout() {
  setKey("");
  setScope(null);
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
  const value = decodeURIComponent(arg || "");
  if (name === "memory") {  // shown once loaded: the page never shows another memory's parts
    guard(async () => {
      await openMemory(value);
      show(name);
      $("d-content").focus();
    });
    return;
  }
  show(name);
  lastList = location.hash || "#/search";
  const load = {
    timeline: loadTimeline, sleep: loadSleeps, stats: loadStats, goals: loadGoals,
    context: loadBoot, review: loadReview, sessions: () => loadSessions(value),
    // both at once, the page opened now: a list arriving late never reopens an older name
    entity: () => Promise.all([loadEntities(), openEntity(value)]),
    browse: () => browse(0),
  }[name];
  if (load) guard(load);
  if (name === "search") $("q").focus();
  if (name === "add") $("a-content").focus();
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

$("login-form").addEventListener("submit", (e) => { e.preventDefault(); login($("key").value); });
$("logout").addEventListener("click", logout);
$("scope").addEventListener("change", switchScope);
$("search-form").addEventListener("submit", (e) => { e.preventDefault(); guard(search); });
$("context-form").addEventListener("submit", (e) => { e.preventDefault(); guard(showContext); });
$("save").addEventListener("click", () => guard(save));
$("forget").addEventListener("click", () => guard(forget));
$("restore").addEventListener("click", () => guard(restore));
$("erase").addEventListener("click", () => guard(erase));
$("entity-form").addEventListener("submit", (e) => {
  e.preventDefault();
  location.hash = "#/entity/" + encodeURIComponent($("e-name").value.trim());
});
$("run-sleep").addEventListener("click", () => guard(runSleep));
$("back").addEventListener("click", () => { location.hash = lastList; });
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => { location.hash = "#/" + tab.dataset.view; });
}
wireManage(guard);
wireTimeline(guard);
window.addEventListener("hashchange", route);
document.addEventListener("keydown", onKey);
if (getKey()) login(getKey());
