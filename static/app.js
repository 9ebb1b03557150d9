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
