// Table Referee, the group pages only (linked by base.html on them, after app.js): seating a
// group's table as people sit (templates/groups/start.html). Every page works without it.
//
// A chip tapped as here takes the next seat of the seats list, so tapping people in the order
// they sit seats them; a chip tapped off leaves its seat. ↑ and ↓ move a seat in place (by touch,
// or Enter and Space on the focused button, which keeps the focus as its seat moves) instead of
// posting the form, and a sentence for screen readers says where the seat went. Whoever deals
// first is the next in turn among who is seated (the list's data-turn, from the server's rotation)
// until a "deals first" is tapped; the seats are what the form posts, in their order.

function setUpSeating(list) {
  const form = list.closest("form");
  const row = form.querySelector("template[data-seat-row]");
  const said = form.querySelector("[data-seating-said]");
  const turn = (list.dataset.turn || "").split(" ").filter(Boolean);
  form.querySelectorAll("#seating [data-no-script]").forEach((node) => node.remove());

  const seats = () => [...list.children];
  const seatOf = (value) => seats().find((seat) => seat.dataset.value === value);

  function renumber() {
    const all = seats();
    all.forEach((seat, index) => {
      seat.querySelector(".seat-no").textContent = index + 1;
    });
    form.querySelector("[data-no-seats]").hidden = all.length > 0;
    const checked = list.querySelector("input[name=dealer]:checked");
    if (list.dataset.picked && checked) return;
    list.dataset.picked = "";
    const values = all.map((seat) => seat.dataset.value);
    const dealer = turn.find((value) => values.includes(value)) || values[0];
    if (dealer) seatOf(dealer).querySelector("input[name=dealer]").checked = true;
  }

  function add(box) {
    const name = box.closest("label").firstChild.textContent.trim();
    const seat = row.content.firstElementChild.cloneNode(true);
    seat.dataset.value = box.value;
    seat.querySelector("input[name=seat]").value = box.value;
    seat.querySelector("input[name=dealer]").value = box.value;
    seat.querySelector(".who").textContent = name;
    seat.querySelectorAll("[aria-label]").forEach((node) => {
      node.setAttribute("aria-label", node.getAttribute("aria-label").replace("{name}", name));
    });
    seat.querySelectorAll("button[name=move]").forEach((button) => {
      button.value = button.value.replace("{value}", box.value);
    });
    list.append(seat);
  }

  function follow(box) {
    const seat = seatOf(box.value);
    if (box.checked && !seat) add(box);
    if (!box.checked && seat) seat.remove();
  }

  const boxes = [...form.querySelectorAll("input[name=here]")];
  // A page restored by the back button keeps its ticks: seat whoever is ticked and not seated.
  boxes.forEach(follow);
  renumber();
  boxes.forEach((box) => box.addEventListener("change", () => {
    follow(box);
    renumber();
  }));

  list.addEventListener("change", (event) => {
    if (event.target.name === "dealer") list.dataset.picked = "yes";
  });
  list.addEventListener("click", (event) => {
    const button = event.target.closest("button[name=move]");
    if (!button) return;
    event.preventDefault();
    const seat = button.closest("li");
    if (button.value.startsWith("up-") && seat.previousElementSibling) {
      list.insertBefore(seat, seat.previousElementSibling);
    } else if (button.value.startsWith("down-") && seat.nextElementSibling) {
      list.insertBefore(seat.nextElementSibling, seat);
    }
    button.focus();
    renumber();
    const all = seats();
    said.textContent = list.dataset.moved
      .replace("{name}", seat.querySelector(".who").textContent)
      .replace("{n}", all.indexOf(seat) + 1)
      .replace("{of}", all.length);
  });
}

document.querySelectorAll("[data-seating]").forEach(setUpSeating);

// Your keeper link (templates/groups/my_link.html): where the phone can share (the Web Share
// API), a button hands the link to its share sheet (a note, a message to oneself); elsewhere it
// stays hidden, and the link is there to copy.
document.querySelectorAll("[data-share]").forEach((button) => {
  const field = document.getElementById(button.dataset.share);
  if (!navigator.share || !field) return;
  button.hidden = false;
  button.addEventListener("click", () => navigator.share({ url: field.value }).catch(() => {}));
});

// A group page and its TV mode follow the group (body's data-follow: where the page stands):
// they open their own address as a stream (referee/web/live.py, group_stream), which says
// "moved" when a table they show changes or the group does; the page then reads itself again
// and puts its live parts ([data-live], by id: tonight's tables, the TV board) in place, so a
// form being filled in elsewhere on the page keeps what was typed. Without the stream (no
// EventSource, a proxy that holds it back, a server that serves none) it reads itself every
// 15 seconds; a link revoked meanwhile reloads the page, which says so.
function followGroup(at) {
  let reading = false;
  let again = false;
  async function read() {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    try {
      const answer = await fetch(location.href, { credentials: "same-origin" });
      if (!answer.ok) return;
      const next = new DOMParser().parseFromString(await answer.text(), "text/html");
      const turns = 'head > meta[http-equiv="refresh"]';
      if (next.querySelector(turns) && !document.querySelector(turns)) {
        location.reload(); // a second screen for TV mode: its pages take turns
        return;
      }
      document.querySelectorAll("[data-live][id]").forEach((part) => {
        const fresh = next.getElementById(part.id);
        if (fresh) part.replaceWith(fresh);
      });
      for (const { name, value } of next.body.attributes) document.body.setAttribute(name, value);
    } catch {
      // offline for a moment: the next change, or the next turn, reads again
    } finally {
      reading = false;
      if (again) {
        again = false;
        read();
      }
    }
  }
  const everyTurn = () => setInterval(read, 15000);
  if (!window.EventSource) return everyTurn();
  const url = new URL(location.href);
  url.hash = "";
  url.searchParams.set("stream", at);
  const stream = new EventSource(url);
  let given = false;
  const giveUp = () => {
    clearTimeout(slow);
    stream.close();
    if (!given) everyTurn();
    given = true;
  };
  const slow = setTimeout(giveUp, 5000); // no stream within 5 s: read every turn instead
  stream.addEventListener("ready", () => clearTimeout(slow));
  stream.addEventListener("moved", read);
  stream.addEventListener("lost", () => {
    stream.close();
    location.reload();
  });
  stream.addEventListener("error", () => {
    if (stream.readyState === EventSource.CLOSED) giveUp();
  });
}

if (document.body.dataset.follow) followGroup(document.body.dataset.follow);
