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

// Live view: every few seconds, ask the server whether the table changed (an ETag'd request that
// is a 304 until it does). A page with nothing typed into it is fetched again; a page with input
// or an error on it keeps it and says the table changed instead. Without JavaScript: reload.
const pollUrl = document.body.dataset.poll;
if (pollUrl) {
  const shown = document.body.dataset.seq;
  let typed = document.querySelector(".error-box") !== null;
  let told = false;
  document.addEventListener("input", () => { typed = true; });
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
  const check = async () => {
    if (document.hidden) return;
    try {
      const answer = await fetch(pollUrl, { cache: "no-cache", credentials: "omit" });
      if (!answer.ok) return;
      if ((await answer.text()).trim() === shown) return;
      if (typed) tell();
      else location.replace(location.pathname + location.search);
    } catch (error) {
      // Offline for a moment: ask again at the next tick.
    }
  };
  setInterval(check, 3000);
  document.addEventListener("visibilitychange", check);
}

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
