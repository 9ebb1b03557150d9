// Table Referee: small enhancements; every page works without this script.
"use strict";

// The sentences this script shows, in the page's language: the page carries them, translated
// (templates/base.html, #script-words); "{name}" in one is filled in from ``values``.
const scriptWords = document.getElementById("script-words")?.dataset ?? {};
function say(name, values = {}) {
  return (scriptWords[name] ?? "").replace(/\{(\w+)\}/g, (_, key) => String(values[key]));
}

// Running sums of count inputs (tricks, cards won): show the total against what it must reach.
function updateSums(form) {
  form.querySelectorAll("[data-sum-of]").forEach((out) => {
    const group = out.getAttribute("data-sum-of");
    const need = Number(out.getAttribute("data-need"));
    let total = 0;
    form.querySelectorAll(`input[data-group="${group}"]`).forEach((input) => {
      if (input.type === "radio" && !input.checked) return; // count chips: the one tapped
      const n = Number(input.value);
      if (Number.isFinite(n)) total += n;
    });
    const says = out.dataset.says;
    out.textContent = says ? says.replace("{total}", total).replace("{need}", need) : say("sum", { total, need });
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

// A new group: its evenings are dated in this phone's time zone unless another is typed (without
// JavaScript the form's default stands).
document.querySelectorAll("input[data-time-zone]").forEach((input) => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (zone && input.value === input.defaultValue) input.value = zone;
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

// Live view (referee/web/live.py; fetch sends this app's cookies by default): the page opens its own address as a stream of server-sent
// events, which brings each change: the page itself ("page"), or the position ("moved": the page
// asks for itself). Without a stream (a 204, none open within 5 s, one closed for good) it asks:
// this page again, If-None-Match the position it shows and X-Table-Poll its key; a 304 until the
// table moves, then the page: every second while the table is busy, every 3 s once quiet, every
// 6 s after 10 quiet minutes. A page with nothing typed into it swaps in its new <main> (scroll
// and open explanations kept); one with input says the table changed. Without JavaScript: reload.
let typed = document.querySelector(".error-box") !== null;
let told = false;
let sending = false; // an entry is on its way (see "Entries in place" below)
let sent = () => {}; // … and what the live view does once it has its answer
let changedAt = Date.now(); // when this page last saw the table change (or opened)
document.addEventListener("input", () => { typed = true; });
function pollEvery() {
  const quiet = Date.now() - changedAt;
  return quiet < 90_000 ? 1000 : quiet < 600_000 ? 3000 : 6000;
}
if (document.body.dataset.poll) {
  const tell = () => {
    if (told) return;
    told = true;
    const link = document.createElement("a");
    link.href = location.pathname + location.search;
    link.textContent = say("showNow");
    note(say("changed") + " ", "info", "stale-note").append(link);
  };
  // A 403 or a "lost" event: this phone's link no longer opens the table; say so.
  let lost = false;
  const lose = () => {
    if (lost) return;
    lost = true;
    note(say("stopped"), "error", "");
  };
  // The poll's key: the k of the older /seq address (read anew: a revocation changes it).
  const pollKey = () =>
    new URL(document.body.dataset.poll, location.href).searchParams.get("k") ?? "";
  // The newest position this page heard of without showing it (its input kept: "tell").
  let heard = -1;
  const shown = () => Math.max(Number(document.body.dataset.seq), heard);
  // This page as the server sent it after a change (a poll's answer, a stream's event).
  const arrived = (html, answer) => {
    const now = new DOMParser().parseFromString(html, "text/html").body.dataset.seq;
    if (now === undefined) { // not this page any more (gone, say): show what the server says
      location.replace(location.href);
      return;
    }
    if (Number(now) <= shown()) return;
    changedAt = Date.now();
    if (typed) {
      heard = Number(now);
      tell();
    } else if (!showScreen(html, false)) location.replace(location.href);
    else keepScreen(answer, html);
  };
  let checking = false;
  const check = async () => {
    if (document.hidden || sending || lost || checking) return;
    checking = true;
    const asked = shown();
    try {
      const answer = await fetch(location.pathname + location.search, {
        cache: "no-store",
        headers: { "If-None-Match": `"seq-${asked}"`, "X-Table-Poll": pollKey() },
      });
      if (answer.status === 304) {
        // The stream told of a change this server has not heard of yet: ask again soon.
        if (movedTo > asked) setTimeout(check, 200);
        return;
      }
      if (answer.status === 403) lose();
      if (answer.status === 403 || answer.status >= 500 || sending) return; // a 5xx: ask later
      const html = answer.ok ? await answer.text() : "";
      if (!sending) arrived(html, answer);
    } catch {
      // offline for a moment: ask again at the next tick
    } finally {
      checking = false;
    }
  };
  let asking = false;
  const ask = () => {
    if (asking || lost) return;
    asking = true;
    const tick = async () => {
      await check();
      setTimeout(tick, pollEvery());
    };
    setTimeout(tick, 0);
    document.addEventListener("visibilitychange", check);
  };
  // The stream's newest page waits while this page's own entry is on its way.
  let streamed = null;
  let movedTo = -1;
  sent = () => {
    if (streamed && !lost) arrived(streamed.data, null);
    streamed = null;
    if (movedTo > shown()) check();
  };
  const url = new URL(location.href);
  url.hash = "";
  url.searchParams.set("stream", String(shown()));
  if (!window.EventSource) ask();
  else {
    const stream = new EventSource(url);
    const giveUp = () => {
      stream.close();
      ask();
    };
    const slow = setTimeout(giveUp, 5000); // no stream within 5 s: ask instead
    stream.addEventListener("ready", () => clearTimeout(slow));
    stream.addEventListener("page", (event) => {
      streamed = event;
      if (!sending) sent();
    });
    stream.addEventListener("moved", (event) => {
      movedTo = Number(event.lastEventId);
      if (!sending) sent();
    });
    stream.addEventListener("lost", () => {
      stream.close();
      lose();
    });
    stream.addEventListener("error", () => { // a stream closed for good: ask instead
      if (stream.readyState === EventSource.CLOSED) giveUp();
    });
  }
}

// Entries in place: a form marked data-swap (the round screen's entries) is sent with fetch, and
// the screen that comes back (the next one, or this one with the reason an entry was refused)
// replaces this page's <main>: one request instead of a POST and the redirected page, and the
// scroll position kept. Without JavaScript the form posts and the browser follows the redirect.
function showScreen(html, entered = true) {
  const next = new DOMParser().parseFromString(html, "text/html");
  const main = next.querySelector("main");
  if (!main) return false;
  const old = document.querySelector("main");
  scoreLinks(main);
  if (!entered) {
    // Followed, not entered: the explanations this reader opened stay open (by their place).
    old.querySelectorAll("details").forEach((details, index) => {
      const same = main.querySelectorAll("details")[index];
      if (same && details.open) same.open = true;
    });
    // … and so do the score explanations opened on the sheet (rows marked "shown", by id).
    old.querySelectorAll("tr.shown[id]").forEach((row) => {
      const same = main.querySelector(`#${CSS.escape(row.id)}`);
      if (!same) return;
      same.classList.add("shown");
      const link = main.querySelector(`table.sheet td > a[aria-controls="${row.id}"]`);
      if (link) link.setAttribute("aria-expanded", "true");
    });
  }
  old.replaceWith(main);
  for (const { name, value } of next.body.attributes) document.body.setAttribute(name, value);
  document.title = next.title;
  main.querySelectorAll("form").forEach(updateSums);
  setUpAwake();
  localTimes();
  typed = main.querySelector(".error-box") !== null;
  told = false;
  changedAt = Date.now();
  if (!entered) return true;
  // Open the screen where the entry left the table (as the redirect's fragment does without
  // this script): the summary of the round it scored, or the round's facts, the step right
  // below; a refused entry at its reason.
  const landing = main.querySelector("[data-landing]");
  if (landing && !main.querySelector(".error-box")) landing.scrollIntoView({ block: "start" });
  // Move the reader to what changed: the message, else what the table enters next.
  const focus = main.querySelector(".error-box, .flash, #next-title");
  if (focus) {
    focus.setAttribute("tabindex", "-1");
    focus.focus({ preventScroll: focus.id === "next-title" || landing?.contains(focus) });
  }
  return true;
}
// The scorekeeper's round screen opened afresh (not at a fragment, not scrolled back to where it
// was) opens where an entry would leave it: the summary just scored, or the round's facts, with
// the step right below.
if (!location.hash && window.scrollY === 0 && document.querySelector("#next form")) {
  document.querySelector("[data-landing]")?.scrollIntoView({ block: "start" });
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
    });
    const html = await answer.text();
    if (!showScreen(html)) location.reload();
    else keepScreen(answer, html);
  } catch {
    if (waitOffline(form, body, event.submitter)) return; // "Offline" below
    note(say("noConnection"), "error", "");
  } finally {
    sending = false;
    main.removeAttribute("aria-busy");
    sent();
  }
});

// Share page: a "Copy link" button next to each link (the link is also there to select by hand).
document.querySelectorAll("[data-copy]").forEach((button) => {
  const input = document.getElementById(button.dataset.copy);
  if (!input || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    await navigator.clipboard.writeText(input.value);
    button.textContent = say("copied");
  });
});

// --- Count chips (templates/round/_macros.html, count_chips) ---
// A row of chips per player, counts that must add up: once every row but one is tapped, the one
// left is filled in with what is left (none if what is left is not one of its chips). A row
// filled in so is filled in again when another changes; a row tapped is the person's.
document.addEventListener("change", (event) => {
  const chip = event.target;
  const group = chip.closest && chip.closest("[data-chips]");
  if (!group || chip.type !== "radio") return;
  chip.closest(".chip-row").dataset.tapped = "yes";
  const rows = [...group.querySelectorAll(".chip-row")];
  const open = rows.filter((row) => !row.dataset.tapped);
  if (open.length === 1) {
    let left = Number(group.dataset.need);
    rows.forEach((row) => {
      const tapped = row.dataset.tapped && row.querySelector("input:checked");
      if (tapped) left -= Number(tapped.value);
    });
    open[0].querySelectorAll("input").forEach((input) => {
      input.checked = Number(input.value) === left;
    });
  }
  updateSums(chip.form);
});

// --- The trick tool (templates/disputes/trick.html) ---
// A form marked data-submit-on-change is sent as soon as one of its choices changes (the trump):
// the answer follows the choice. Without JavaScript its own button sends it.
document.addEventListener("change", (event) => {
  const form = event.target.form;
  if (form && form.hasAttribute("data-submit-on-change")) form.requestSubmit();
});
// --- Keep awake (templates/evening/_awake.html): the scorekeeper's table page and TV mode ask
// for a screen wake lock as they open, and again when the page is shown again (the browser lets
// it go when the page is hidden): the switch starts on, so a phone left on the table between
// hands does not go dark. Switched off, it is remembered per phone.
const AWAKE_KEY = "referee-keep-awake";
let awakeLock = null;
function awakeWanted() {
  try {
    return localStorage.getItem(AWAKE_KEY) !== "off";
  } catch {
    return true;
  }
}
async function holdAwake() {
  const place = document.querySelector("[data-awake]");
  const box = place && place.querySelector("[data-awake-switch]");
  if (!box || !box.checked || box.disabled || awakeLock || document.hidden) return;
  try {
    awakeLock = await navigator.wakeLock.request("screen");
    awakeLock.addEventListener("release", () => { awakeLock = null; });
    place.dataset.held = "yes";
  } catch {
    place.dataset.held = "no"; // refused (a battery saver, say): the page says so
  }
}
function setUpAwake() {
  const place = document.querySelector("[data-awake]");
  if (!place) {
    if (awakeLock) awakeLock.release();
    return;
  }
  if (!("wakeLock" in navigator)) return; // the page says it is not available
  const box = place.querySelector("[data-awake-switch]");
  place.querySelector("[data-awake-none]").hidden = true;
  box.disabled = false;
  box.checked = awakeWanted();
  box.addEventListener("change", () => {
    try {
      localStorage.setItem(AWAKE_KEY, box.checked ? "on" : "off");
    } catch {
      // Not remembered (private browsing): it holds for this page all the same.
    }
    if (box.checked) holdAwake();
    else if (awakeLock) awakeLock.release();
    if (!box.checked) delete place.dataset.held;
  });
  if (awakeLock) place.dataset.held = "yes";
  else holdAwake();
}
document.addEventListener("visibilitychange", () => { if (!document.hidden) holdAwake(); });
setUpAwake();

// --- Score sheet and history (templates/sheet/_table.html, templates/history/page.html) ---
// A tapped score (a round's cell's link) opens its explanation row below the round in place
// (without JavaScript the link's anchor opens it, by :target); a second tap closes it. The page
// leaves out each link's aria-controls, the row it opens: they are set here, from the anchor,
// when the page loads and when a new one is swapped in.
function scoreLinks(root) {
  root.querySelectorAll("table.sheet td > a").forEach((link) => {
    link.setAttribute("aria-controls", link.hash.slice(1));
  });
}
scoreLinks(document);
document.addEventListener("click", (event) => {
  const link = event.target.closest("table.sheet td > a[aria-controls]");
  if (!link) return;
  const row = document.getElementById(link.getAttribute("aria-controls"));
  if (!row) return;
  event.preventDefault();
  const open = !row.classList.contains("shown") && !row.matches(":target");
  row.classList.toggle("shown", open);
  link.setAttribute("aria-expanded", String(open));
  if (!open && row.matches(":target")) location.hash = link.closest("tr").id;
});
// Times of the history in the phone's own time zone (the page says them in UTC without this),
// written the way the page's language writes them (<html lang>), not the phone's: a German page
// says 21:05:09 on a phone set to English, an English one 9:05:09 PM.
function localTimes() {
  const lang = document.documentElement.lang || [];
  document.querySelectorAll("time[data-local]").forEach((time) => {
    const when = new Date(time.getAttribute("datetime"));
    if (Number.isNaN(when.getTime())) return;
    const clock = { hour: "2-digit", minute: "2-digit", second: "2-digit" };
    time.textContent = when.toLocaleTimeString(lang, clock);
    time.title = when.toLocaleString(lang);
  });
}
localTimes();
// --- end of the score sheet and history ---

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

// A screen an entry brought back is this page's newest version: keep it for the service worker
// (as the worker does, never one said not to be stored: a page that shows a link).
// A page a stream brought (``answer`` null) was made just now.
function keepScreen(answer, html) {
  const control = answer?.headers.get("Cache-Control") || "";
  if ((answer && answer.status !== 200) || !window.caches || control.includes("no-store")) return;
  const made = answer?.headers.get("Date");
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
  } catch {
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
  } catch {
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
  } catch {
    // Still no connection: it waits for the next try.
  } finally {
    sending = false;
    sent();
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
  } catch {
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

// --- New table: "Deals first" names the players as they are typed ------------------------------
// Each name field carries its choice's two labels (translated on the server): with the name put
// in for "{name}", or the bare seat when the row is blank. Without JavaScript the server fills
// them in on every reload (a reorder, a refused form).
document.querySelectorAll("[data-first-choice]").forEach((input) => {
  const select = input.form && input.form.elements.namedItem("first");
  if (!select || !select.options) return;
  const option = Array.from(select.options).find((o) => o.value === input.dataset.firstChoice);
  if (!option) return;
  const relabel = () => {
    const name = input.value.trim();
    option.textContent = name
      ? input.dataset.firstNamed.replace("{name}", name)
      : input.dataset.firstBlank;
  };
  input.addEventListener("input", relabel);
  relabel();
});
