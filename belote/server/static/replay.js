// The stepping replay of a finished match (issue 11, item 8): keys move through the steps
// the server prepared (every sentence comes translated with them), each step is said in a
// polite live region, and A asks the server for the expert's analysis of the card played.
"use strict";

(function () {
  const root = document.getElementById("replay-stepper");
  if (!root) return;
  const $ = (id) => document.getElementById(id);
  const frames = JSON.parse(root.dataset.frames);
  const S = JSON.parse(root.dataset.strings);
  const table = root.dataset.table;
  let at = 0;
  let asked = 0; // the analysis request in flight: a later one wins

  function say(text) {
    const live = $("polite");
    // emptied first, so that the same sentence twice (R) is said twice
    live.textContent = "";
    window.setTimeout(() => { live.textContent = text; }, 30);
  }

  function draw() {
    const frame = frames[at];
    $("replay-position").textContent = frame.position;
    $("replay-said").textContent = frame.text;
    $("replay-table").textContent = frame.table;
    $("replay-points").textContent = frame.points;
    const list = $("replay-hands");
    list.textContent = "";
    for (const hand of frame.hands) {
      const item = document.createElement("li");
      item.textContent = `${hand.who}: ${hand.cards}`;
      list.appendChild(item);
    }
    drawFelt(frame);
    $("analysis-text").textContent = "";
    $("analysis-values").textContent = "";
    $("analysis-button").disabled = frame.kind !== "card";
  }

  // The same step for the eyes (aria-hidden: the lines above say all of it), seen from
  // South as a spectator sees the table (cards.js): each hand as faces at its seat, the
  // cards of the "table" line at the seats that played them, the turned card in the centre.
  function drawFelt(frame) {
    const felt = $("replay-felt");
    const { faceElement, ALL_PLACES, place } = window.SalaCards;
    const count = frame.hands.length;
    for (const where of ALL_PLACES) {
      felt.querySelector(".rhand-" + where).textContent = "";
      felt.querySelector(".played-" + where).textContent = "";
    }
    frame.hands.forEach((hand, seat) => {
      const where = place(seat, count, null);
      const box = felt.querySelector(".rhand-" + where);
      const who = document.createElement("span");
      who.className = "who";
      who.textContent = hand.who;
      const faces = document.createElement("span");
      faces.className = "faces";
      for (const code of hand.codes) faces.appendChild(faceElement(code));
      box.append(who, faces);
    });
    for (const card of frame.played) {
      felt.querySelector(".played-" + place(card.seat, count, null)).appendChild(faceElement(card.code));
    }
    const note = felt.querySelector(".felt-note");
    note.textContent = "";
    if (frame.turned) note.appendChild(faceElement(frame.turned));
  }

  function go(index) {
    if (index < 0) { say(S["edge.first"]); return; }
    if (index >= frames.length) { say(S["edge.last"]); return; }
    at = index;
    asked += 1;
    draw();
    say(frames[at].text);
  }

  // The first step of the group holding ``index`` (a trick, or a hand).
  function groupStart(index, key) {
    while (index > 0 && key(frames[index - 1]) === key(frames[index])) index -= 1;
    return index;
  }
  function nextGroup(key) {
    let index = at;
    while (index < frames.length && key(frames[index]) === key(frames[at])) index += 1;
    go(index);
  }
  function previousGroup(key) {
    const start = groupStart(at, key);
    go(start < at ? start : (start === 0 ? -1 : groupStart(start - 1, key)));
  }
  const trickKey = (f) => `${f.deal}:${f.kind === "card" || f.kind === "other" ? f.trick : 0}`;
  const handKey = (f) => `${f.deal}`; // a deal: an all-pass redeal is one of its own

  async function analyse() {
    const frame = frames[at];
    if (frame.kind !== "card") { say(S["analysis.not_card"]); return; }
    const mine = ++asked;
    say(S["analysis.wait"]);
    let text;
    let values = [];
    try {
      const response = await fetch(`/replay/${table}/analysis?step=${at}`,
                                   { headers: { accept: "application/json" } });
      const body = await response.json();
      text = response.ok ? body.text : body.error;
      if (response.ok) values = body.values;
    } catch (e) {
      text = S["analysis.failed"] || S["analysis.wait"];
    }
    if (mine !== asked) return; // the user moved on meanwhile
    $("analysis-text").textContent = text;
    const list = $("analysis-values");
    list.textContent = "";
    for (const value of values) {
      const item = document.createElement("li");
      item.textContent = value.text;
      list.appendChild(item);
    }
    say(text);
  }

  const COMMANDS = {
    ArrowRight: () => go(at + 1),
    ArrowLeft: () => go(at - 1),
    ArrowDown: () => nextGroup(trickKey),
    ArrowUp: () => previousGroup(trickKey),
    PageDown: () => nextGroup(handKey),
    PageUp: () => previousGroup(handKey),
    Home: () => go(0),
    End: () => go(frames.length - 1),
    a: analyse, A: analyse,
    r: () => say(frames[at].text), R: () => say(frames[at].text),
  };

  $("replay-board").addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const command = COMMANDS[event.key];
    if (!command) return;
    event.preventDefault();
    command();
  });
  // The same steps by touch (replay.html's buttons name the key they stand for).
  for (const button of document.querySelectorAll("[data-replay-key]")) {
    button.addEventListener("click", () => COMMANDS[button.dataset.replayKey]());
  }
  $("analysis-button").addEventListener("click", () => { analyse(); });
  draw();
})();
