// The "still true?" page: the facts and preferences gone unconfirmed for long
// (GET /v1/review/still-true), the longest overdue first, each with Confirm (POST
// /v1/memories/{id}/confirm), Update (a new wording, then confirmed: the same call with
// content) and Forget (DELETE /v1/memories/{id}). Each answer takes it off the list.
"use strict";

import { $, api, day, el, enc, memoryLink } from "./util.js";

export async function loadReview() {
  const { queue } = await api("GET", "/v1/review/still-true?k=100");
  $("r-done").textContent = "";
  $("r-list").replaceChildren(...(queue.length ? queue.map(item) : [empty()]));
}

function empty() {
  return el("li", { class: "empty" },
    "Nothing to ask about: every fact was confirmed within its period.");
}

function item(s) {
  const edit = el("textarea", { rows: 2, class: "r-edit", hidden: true,
    "aria-label": "What holds now instead of: " + s.content });
  edit.value = s.content;
  const li = el("li", { class: "card still-true", "data-id": s.id });
  const done = async (said, call) => {
    await call();
    li.remove();
    $("r-done").textContent = said;
    if (!$("r-list").children.length) $("r-list").append(empty());
  };
  const confirm = el("button", { class: "primary r-confirm" }, "Still true");
  const update = el("button", { class: "r-update" }, "Update…");
  const forget = el("button", { class: "r-forget" }, "Forget");
  confirm.addEventListener("click", () => guarded(() => done("Confirmed: " + s.content,
    () => api("POST", `/v1/memories/${enc(s.id)}/confirm`))));
  update.addEventListener("click", () => {
    if (edit.hidden) {
      edit.hidden = false;
      update.textContent = "Save the new wording";
      edit.focus();
      return;
    }
    guarded(() => done("Updated: " + edit.value, () => api("POST",
      `/v1/memories/${enc(s.id)}/confirm`, { content: edit.value })));
  });
  forget.addEventListener("click", () => guarded(() => done("Forgotten: " + s.content,
    () => api("DELETE", `/v1/memories/${enc(s.id)}`))));
  li.append(el("p", { class: "content" }, memoryLink(s)),
    el("p", { class: "note small" }, `${s.kind} · last confirmed ${day(s.last_confirmed)} · `
      + `${Math.round(s.doubt * 100)}% likely to have changed`),
    edit, el("p", { class: "row" }, confirm, update, forget));
  return li;
}

async function guarded(fn) {
  $("error").textContent = "";
  try { await fn(); } catch (err) { $("error").textContent = String(err.message || err); }
}
