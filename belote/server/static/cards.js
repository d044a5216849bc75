// Card faces and seat places, shared by the table (table.js) and the replay (replay.js):
// both draw the same felt for the eyes, so a card looks the same on both pages.
"use strict";

window.SalaCards = (function () {
  const SUITS = "HDCS"; // a card code's last letter; its index is the suit's number
  const SYMBOLS = ["♥", "♦", "♣", "♠"];

  function face(code) {
    return { rank: code.slice(0, -1), symbol: SYMBOLS[SUITS.indexOf(code.slice(-1))] };
  }

  // A face: rank and suit symbol, coloured by the suit (sala.css, following the deck
  // setting), so the symbol says the suit where the colour cannot.
  function faceElement(code) {
    const box = document.createElement("span");
    const { rank, symbol } = face(code);
    box.className = "face suit-" + SUITS.indexOf(code.slice(-1));
    box.dataset.code = code;
    const r = document.createElement("span");
    r.className = "rank";
    r.textContent = rank;
    const s = document.createElement("span");
    s.className = "symbol";
    s.textContent = symbol;
    box.append(r, s);
    return box;
  }

  // From the viewer's seat, in play order, for the number of seats the table has (4, 3, 2).
  const PLACES = { 4: ["bottom", "left", "top", "right"], 3: ["bottom", "left", "right"], 2: ["bottom", "top"] };
  const ALL_PLACES = PLACES[4];
  // Where ``seat`` sits seen from ``viewer`` (null: a spectator, who sees from South, or
  // from the first seat with two players).
  function place(seat, count, viewer) {
    const me = viewer === null ? (count > 2 ? 2 : 0) : viewer;
    return (PLACES[count] || ALL_PLACES)[(seat - me + count) % count];
  }

  return { SUITS, face, faceElement, ALL_PLACES, place };
})();
