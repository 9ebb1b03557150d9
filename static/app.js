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
    if (!showScreen(await answer.text())) location.reload();
  } catch (error) {
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
