// Table Referee: small enhancements; every page works without this script.
"use strict";

// Running sums of count inputs (tricks, cards won): show the total against what it must reach.
function updateSums(form) {
  form.querySelectorAll("[data-sum-of]").forEach((out) => {
    const group = out.getAttribute("data-sum-of");
    const need = Number(out.getAttribute("data-need"));
    let total = 0;
    form.querySelectorAll(`input[data-group="${group}"]`).forEach((input) => {
      const n = Number(input.value);
      if (Number.isFinite(n)) total += n;
    });
    out.textContent = `${total} of ${need}`;
    out.classList.toggle("ok", total === need);
    out.classList.toggle("bad", total !== need);
  });
}

document.addEventListener("input", (event) => {
  const form = event.target.closest("form");
  if (form) updateSums(form);
});
document.querySelectorAll("form").forEach(updateSums);

// New table: show only the chosen game's options fieldset (the server reads only those anyway).
document.querySelectorAll("form[data-new-table]").forEach((form) => {
  const showChosen = () => {
    const chosen = form.querySelector('input[name="game"]:checked');
    form.querySelectorAll("fieldset[data-game]").forEach((fieldset) => {
      fieldset.hidden = chosen !== null && fieldset.dataset.game !== chosen.value;
    });
  };
  form.addEventListener("change", showChosen);
  showChosen();
});

// Opening a shared link (/j#<token>): the token is the address's fragment, which the browser never
// sends to the server; hand it over in the page's form at once, and take it out of the address
// (and so out of the history). Without JavaScript the link is pasted into that form.
document.querySelectorAll("form[data-join]").forEach((form) => {
  form.querySelectorAll("[data-no-script]").forEach((said) => said.remove());
  const token = location.hash.slice(1);
  if (!token || form.elements.link.value) return;
  form.elements.link.value = token;
  history.replaceState(null, "", location.pathname + location.search);
  form.submit();
});

// Live view: every few seconds, ask the server whether the table changed (an ETag'd request that
// is a 304 until it does). A page with nothing typed into it is fetched again; a page with input
// or an error on it keeps it and says the table changed instead. Without JavaScript: reload.
let typed = document.querySelector(".error-box") !== null;
let told = false;
let sending = false; // an entry is on its way (see "Entries in place" below)
document.addEventListener("input", () => { typed = true; });
if (document.body.dataset.poll) {
  const tell = () => {
    if (told) return;
    told = true;
    const note = document.createElement("p");
    note.className = "flash info stale-note";
    note.setAttribute("role", "status");
    note.textContent = "The table changed on another phone. ";
    const link = document.createElement("a");
    link.href = location.pathname + location.search;
    link.textContent = "Show it as it is now";
    note.append(link);
    document.querySelector("main").prepend(note);
  };
  // A 403: the page's key no longer opens the table (the server's secret key changed), so
  // neither would this phone's link; say so instead of going quiet.
  let lost = false;
  const lose = () => {
    lost = true;
    const note = document.createElement("p");
    note.className = "flash error";
    note.setAttribute("role", "alert");
    note.textContent = "This page has stopped following the table: this phone's link no longer " +
      "opens it. Ask the scorekeeper to show you the link or its QR code again.";
    document.querySelector("main").prepend(note);
  };
  const check = async () => {
    if (document.hidden || sending || lost) return;
    try {
      const answer = await fetch(document.body.dataset.poll, { cache: "no-cache", credentials: "omit" });
      if (answer.status === 403 && !lost) lose();
      if (!answer.ok || sending) return;
      if ((await answer.text()).trim() === document.body.dataset.seq) return;
      if (typed) tell();
      else location.replace(location.pathname + location.search);
    } catch (error) {
      // Offline for a moment: ask again at the next tick.
    }
  };
  setInterval(check, 3000);
  document.addEventListener("visibilitychange", check);
}

// Entries in place: a form marked data-swap (the round screen's entries) is sent with fetch, and
// the screen that comes back (the next one, or this one with the reason an entry was refused)
// replaces this page's <main>: one request instead of a POST and the redirected page, and the
// scroll position kept. Without JavaScript the form posts and the browser follows the redirect.
function showScreen(html) {
  const next = new DOMParser().parseFromString(html, "text/html");
  const main = next.querySelector("main");
  if (!main) return false;
  document.querySelector("main").replaceWith(main);
  for (const { name, value } of next.body.attributes) document.body.setAttribute(name, value);
  document.title = next.title;
  main.querySelectorAll("form").forEach(updateSums);
  typed = main.querySelector(".error-box") !== null;
  told = false;
  // Move the reader to what changed: the message, else what the table enters next.
  const focus = main.querySelector(".error-box, .flash, #next-title");
  if (focus) {
    focus.setAttribute("tabindex", "-1");
    focus.focus({ preventScroll: focus.id === "next-title" });
  }
  return true;
}
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!form.hasAttribute("data-swap") || !window.fetch || !window.DOMParser) return;
  event.preventDefault();
  if (sending) return; // a second tap while the first is on its way
  const body = new URLSearchParams(new FormData(form));
  if (event.submitter && event.submitter.name) body.append(event.submitter.name, event.submitter.value);
  const main = document.querySelector("main");
  sending = true;
  main.setAttribute("aria-busy", "true");
  try {
    // getAttribute: the entry forms have a field named "action", which form.action would give.
    const answer = await fetch(form.getAttribute("action"), {
      method: "POST",
      body,
      headers: { "X-Next-Screen": "1" },
      credentials: "same-origin",
    });
    const html = await answer.text();
    if (!showScreen(html)) location.reload();
    else keepScreen(answer, html);
  } catch (error) {
    if (waitOffline(form, body, event.submitter)) return; // "Offline" below
    const note = document.createElement("p");
    note.className = "flash error";
    note.setAttribute("role", "alert");
    note.textContent = "No connection: that entry may not have reached the table. Tap it again; " +
      "an entry that did arrive is not recorded twice.";
    main.prepend(note);
  } finally {
    sending = false;
    main.removeAttribute("aria-busy");
  }
});

// Share page: a "Copy link" button next to each link (the link is also there to select by hand).
document.querySelectorAll("[data-copy]").forEach((button) => {
  const input = document.getElementById(button.dataset.copy);
  if (!input || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    await navigator.clipboard.writeText(input.value);
    button.textContent = "Copied";
  });
});

// Offline (issue 19): the service worker (static/sw.js, served as /sw.js) keeps every page this
// phone has seen and shows it without a connection, marked <body data-offline="<time>">; here
// the page says so ("Offline — as of 20:31"). An entry tapped without a connection waits in this
// phone's localStorage with every field of its form (the CSRF token, and the log position the
// page showed), and is sent by itself, once, when the connection is back: the server decides,
// as for any entry sent late (recorded, already recorded, or refused with its reason and the
// input kept). Only one entry per table waits: what comes next depends on the table's answer.
// The sentences come from the page (base.html's .offline-line), translated there.
const offlineLine = document.querySelector(".offline-line");
const WAITING_KEY = "referee-waiting";
// As of when the page shows the table: when the server made it (a page that follows the table is
// made again at each change).
let freshAt = document.body.dataset.offline ? new Date(document.body.dataset.offline) : new Date();

if (offlineLine && "serviceWorker" in navigator) {
  navigator.serviceWorker.register(offlineLine.dataset.sw)
    .then(() => navigator.serviceWorker.ready)
    .then((registration) => { // opened while the worker was being installed: not yet its
      if (!navigator.serviceWorker.controller) registration.active.postMessage("take charge");
    })
    .catch(() => {});
}

function said(name, values = {}) {
  const line = document.querySelector(".offline-line") || offlineLine;
  let text = line ? line.dataset[name] || "" : "";
  for (const [key, value] of Object.entries(values)) text = text.replace(`%(${key})s`, value);
  return text;
}

// A note at the top of the page, under the offline line.
function note(text, kind, className) {
  const shown = document.createElement("p");
  shown.className = `flash ${kind} ${className}`;
  shown.setAttribute("role", kind === "error" ? "alert" : "status");
  shown.textContent = text;
  const line = document.querySelector("main > .offline-line");
  if (line) line.after(shown);
  else document.querySelector("main").prepend(shown);
  return shown;
}

function showOffline() {
  const line = document.querySelector(".offline-line");
  if (!line) return;
  const time = freshAt.toLocaleTimeString(document.documentElement.lang || [],
    { hour: "2-digit", minute: "2-digit" });
  line.textContent = said("offline", { time });
  line.classList.add("flash", "warning"); // not before: until then it is no message of the page
  line.hidden = false;
}
window.addEventListener("offline", showOffline);
if (document.body.dataset.offline || !navigator.onLine) showOffline();

// A screen an entry brought back is this page's newest version: keep it for the service worker.
function keepScreen(answer, html) {
  if (answer.status !== 200 || !window.caches) return;
  const made = answer.headers.get("Date");
  const headers = {
    "Content-Type": "text/html; charset=utf-8",
    "X-Kept-At": new Date(made ? Date.parse(made) : Date.now()).toISOString(),
  };
  caches.open("pages")
    .then((cache) => cache.put(location.pathname + location.search, new Response(html, { headers })))
    .catch(() => {});
}

function waitingList() {
  try {
    return JSON.parse(localStorage.getItem(WAITING_KEY) || "[]");
  } catch (error) {
    return [];
  }
}
function setWaiting(list) {
  localStorage.setItem(WAITING_KEY, JSON.stringify(list));
}

// What the entry is, in the page's own words: the step ("Ben bids") and the button tapped ("2").
function entryWords(form, submitter) {
  const title = document.getElementById("next-title");
  const step = title ? title.textContent.replace(/^[^:]*:\s*/, "").trim() : "";
  const choice = submitter && submitter.name ? submitter.textContent.trim() : "";
  return choice ? `${step}: ${choice}` : step;
}

// Keep an entry whose request found no connection; false when this phone cannot keep it.
function waitOffline(form, body, submitter) {
  try {
    const list = waitingList();
    list.push({
      action: form.getAttribute("action"),
      page: location.pathname,
      body: body.toString(),
      what: entryWords(form, submitter),
    });
    setWaiting(list);
  } catch (error) {
    return false;
  }
  showOffline();
  showWaiting();
  return true;
}

// The entries of this page's table that wait; this page's forms wait with them.
function showWaiting() {
  document.querySelectorAll(".waiting-note").forEach((shown) => shown.remove());
  for (const entry of waitingList()) {
    if (entry.page === location.pathname) {
      note(`${said("waiting", { entry: entry.what })} ${said("hold")}`, "warning", "waiting-note");
      document.querySelectorAll("main form[method=post]").forEach((form) => {
        form.inert = true;
        form.classList.add("held");
      });
      return;
    }
  }
  for (const entry of waitingList()) {
    const shown = note(said("elsewhere", { entry: entry.what }), "warning", "waiting-note");
    const link = document.createElement("a");
    link.href = entry.page;
    link.append(...shown.childNodes);
    shown.append(link);
  }
}

// Send this page's waiting entry, once: it leaves the list only with the table's answer (a
// reload on the way sends it again, and the server says "already recorded").
async function sendWaiting() {
  const entry = waitingList().find((waiting) => waiting.page === location.pathname);
  if (!entry || sending || !navigator.onLine) return;
  sending = true;
  try {
    const answer = await fetch(entry.action, {
      method: "POST",
      body: new URLSearchParams(entry.body),
      headers: { "X-Next-Screen": "1" },
      credentials: "same-origin",
    });
    if ([502, 503, 504].includes(answer.status)) return; // a proxy's: the table was not reached
    const html = await answer.text();
    setWaiting(waitingList().filter((waiting) => waiting.body !== entry.body));
    delete document.body.dataset.offline;
    freshAt = new Date();
    if (!showScreen(html)) {
      location.reload();
      return;
    }
    if (answer.ok) keepScreen(answer, html);
    note(said(answer.ok ? "sent" : "refused", { entry: entry.what }), answer.ok ? "info" : "error",
      "sent-note");
    showWaiting();
  } catch (error) {
    // Still no connection: it waits for the next try.
  } finally {
    sending = false;
  }
}

// Back online: a page shown from the phone's copy is fetched again once the server answers (it
// is asked with a bodiless HEAD of the service worker's script), unless an entry of its own
// waits: that entry's answer is the page.
async function refreshKept() {
  if (!document.body.dataset.offline || !navigator.onLine || sending) return;
  if (waitingList().some((waiting) => waiting.page === location.pathname)) return;
  try {
    await fetch(offlineLine.dataset.sw, { method: "HEAD", cache: "no-store" });
  } catch (error) {
    return; // not yet
  }
  location.reload();
}
function backOnline() {
  const line = document.querySelector(".offline-line");
  if (line && !document.body.dataset.offline) line.hidden = true;
  refreshKept();
  sendWaiting();
}
window.addEventListener("online", backOnline);

// Any other form (a new table, undo, a correction) needs the table's answer to go on.
document.addEventListener("submit", (event) => {
  if (navigator.onLine || event.target.hasAttribute("data-swap")) return;
  if (event.target.getAttribute("method") !== "post") return;
  event.preventDefault();
  note(said("needsTable"), "error", "needs-table-note");
});

showWaiting();
sendWaiting();
setInterval(() => { // also when the "online" event is missed, or the server was down a while
  sendWaiting();
  refreshKept();
}, 3000);
