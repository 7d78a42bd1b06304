// "Try it" on the docs page (/docs, server/docs.py): each route's form sends its request to
// this server with the API key typed at the top (else the web page's key of this tab) and
// shows the status and the answer. Path parameters fill the path; a list parameter takes
// comma-separated values.
"use strict";

const keyInput = document.getElementById("docs-key");
keyInput.value = sessionStorage.getItem("engramdb-key") || "";
document.getElementById("docs-key-form").addEventListener("submit", (e) => e.preventDefault());

function target(form) {
  let path = form.dataset.path;
  const query = new URLSearchParams();
  for (const input of form.querySelectorAll("input[data-in]")) {
    const value = input.value.trim();
    if (!value) continue;
    if (input.dataset.in === "path") {
      path = path.replace(`{${input.name}}`, encodeURIComponent(value));
    } else if (input.hasAttribute("data-list")) {
      for (const v of value.split(",")) if (v.trim()) query.append(input.name, v.trim());
    } else {
      query.set(input.name, value);
    }
  }
  const q = query.toString();
  return q ? `${path}?${q}` : path;
}

async function send(form) {
  const out = form.querySelector(".answer");
  const headers = {};
  if (keyInput.value.trim()) headers.Authorization = "Bearer " + keyInput.value.trim();
  const textarea = form.querySelector("textarea[name=body]");
  let body;
  if (textarea) {
    try {
      body = JSON.stringify(JSON.parse(textarea.value || "{}"));
    } catch (err) {
      out.hidden = false;
      out.textContent = "The body is not JSON: " + err.message;
      return;
    }
    headers["Content-Type"] = "application/json";
  }
  const url = target(form);
  out.hidden = false;
  out.textContent = `${form.dataset.method} ${url} …`;
  try {
    const response = await fetch(url, { method: form.dataset.method, headers, body });
    const text = await response.text();
    let shown = text;
    try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch { /* not JSON: as sent */ }
    out.textContent = `${form.dataset.method} ${url}\n${response.status} `
      + `${response.statusText}\n\n${shown}`;
  } catch (err) {
    out.textContent = `${form.dataset.method} ${url}\nno answer: ${err.message}`;
  }
}

for (const form of document.querySelectorAll("form.try-form")) {
  form.addEventListener("submit", (e) => { e.preventDefault(); send(form); });
}
