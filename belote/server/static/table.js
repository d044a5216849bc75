// The table page: one WebSocket, a view rendered from the server's frames, the seed's keys.
// Every sentence comes from the server (announcements, status answers) or from the page's
// translated strings (data-strings); the key handler reads the server's binding table.
"use strict";

(function () {
  const root = document.getElementById("game");
  const tableId = root.dataset.table;
  const bindings = JSON.parse(root.dataset.bindings);
  const S = JSON.parse(root.dataset.strings);
  const BOT_LEVELS = JSON.parse(root.dataset.levels); // the room's own, for this many seats
  const $ = (id) => document.getElementById(id);
  const settings = JSON.parse(document.body.dataset.settings || "{}");
  const spokenCategories = new Set(settings.speak || []);
  const fmt = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => (k in values ? values[k] : ""));

  let socket = null;
  let view = null;
  let version = 0;
  let selected = 0; // index of the active card in the hand
  let retry = 0;
  let helloSent = false;
  let lost = false; // "connection lost" said; "reconnected" is due when it comes back
  let quietReturn = false; // the loss was a move to another process: said once, at the loss
  // A socket that closes and is open again within LOST_GRACE_MS (a room process restarted or
  // killed behind the front, a network blip) is one sentence, said when it is back: the loss
  // and the return in two sentences a second apart would say twice what nobody had to act
  // on.  Longer, the loss is said when the grace ends (and shown at once), the return later.
  const LOST_GRACE_MS = 3000;
  let lossUnsaid = null; // the timer that says the loss at the end of its grace
  let announcedStep = null; // the game step whose "your turn" was said
  let playInFlight = false; // a card was sent and its frame has not come back yet
  let beloteQueued = false; // Space pressed while that card was on its way
  let firstRender = true;
  // The match's history, for the comma / period / R keys: every sentence of the table's
  // log (a sync brings it whole, each update adds its own), each with its category.
  const history = []; // { category, text }

  // ------------------------------------------------------------------ speech
  const pending = {}; // region id -> sentences waiting to be said
  // A catching up (see catchUp) whose sentence waits in pending.polite, not said yet: where
  // it and the words of the others' moves drawn after it are there ([from, to) ranges), and
  // how many moves they stand for.
  let skipUnsaid = null; // { drops: [[from, to], ...], moves }
  let moveWordsWaiting = false; // the last move drawn has words not yet in the live region
  let moveSaidAt = 0; // when they reached it (the pace counts from then)
  function speak(regionId, text) {
    if (!text) return;
    if (pending[regionId]) { pending[regionId].push(text); return; } // said together, none lost
    const region = $(regionId);
    // Clearing first makes a screen reader repeat a sentence said twice in a row.
    region.textContent = "";
    pending[regionId] = [text];
    window.setTimeout(() => {
      region.textContent = pending[regionId].join(" ");
      pending[regionId] = null;
      if (regionId === "polite") skipUnsaid = null;
      if (regionId === "polite" && moveWordsWaiting) {
        moveWordsWaiting = false;
        moveSaidAt = Date.now();
      }
    }, 30);
  }
  const polite = (text) => speak("polite", text);
  const assertive = (text) => speak("assertive", text);

  function addLog(listId, text) {
    const li = document.createElement("li");
    li.textContent = text;
    const list = $(listId);
    // Follow the newest line, unless the reader has scrolled back to read older ones.
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    list.appendChild(li);
    while (list.children.length > 200) list.removeChild(list.firstChild);
    if (atEnd) list.scrollTop = list.scrollHeight;
  }

  // ------------------------------------------------------------------ connection
  // A heartbeat: a ping every PING_MS; a socket that hears nothing (no pong, no frame) for
  // SILENT_MS, with a ping unanswered for ANSWER_MS, is on a stalled path (no close ever
  // comes): the page says so, lets it go and connects again.  (The unanswered ping keeps a
  // hidden tab, whose timers the browser may slow to one a minute, from taking its own
  // slowness for a stall.)  A socket still connecting after CONNECTING_MS is tried again.
  const PING_MS = 2500;
  const SILENT_MS = 6000;
  const ANSWER_MS = 3500;
  const CONNECTING_MS = 8000;
  let heardAt = 0; // when the open socket last heard anything
  let unansweredSince = 0; // when the first ping sent since then went (0: none waits)
  let pingAt = 0;
  let pingNo = 0;
  let openedAt = 0; // when the current socket was created
  // Moves sent or pressed and not yet answered (`done` or an `error` naming them), by id, in
  // order.  While the connection is lost they are held, and sent again once it is back: the
  // server plays each at most once and answers each (docs/room.md, "Stalled connections").
  const moves = new Map();

  function isOpen() {
    return socket && socket.readyState === WebSocket.OPEN && !lost;
  }

  function send(type, data) {
    if (isOpen()) {
      socket.send(JSON.stringify({ t: type, d: data || {}, v: version }));
      return true;
    }
    assertive(S.offline);
    return false;
  }

  function moveId() {
    const id = new Uint32Array(1);
    window.crypto.getRandomValues(id);
    return (id[0] % 2147483646) + 1;
  }

  function transmit(move) {
    socket.send(JSON.stringify({ t: move.t, d: move.d, v: move.v }));
  }

  // A move (a card, a bid, a declaration, belote): numbered, kept until it is answered.
  function sendMove(type, data, label) {
    if (!isOpen()) sayLossNow(); // a move while the socket is away: the player must know
    if (!isOpen() && moves.size) {
      assertive(fmt(S.stall_already_held, { move: [...moves.values()].map((m) => m.label).join(", ") }));
      return false;
    }
    const move = { t: type, d: Object.assign({}, data, { m: moveId() }), v: version, label, resent: false };
    moves.set(move.d.m, move);
    if (isOpen()) { transmit(move); return true; }
    // The connection is lost: the move waits, visibly and said, until it is back.
    showConnection();
    assertive(fmt(S.stall_held, { move: label }));
    return true;
  }

  function showConnection() {
    const line = $("connection");
    line.classList.toggle("lost", lost);
    if (!lost) { line.textContent = S.connected; return; }
    const held = [...moves.values()].map((m) => m.label);
    // What is shown is what was said: a table that moved to another process is no lost link.
    const status = quietReturn ? S.table_moved : S.stall_status;
    line.textContent = status + (held.length ? " " + fmt(S.stall_held_list, { moves: held.join(", ") }) : "");
  }

  function sayLossNow() {
    if (lossUnsaid === null) return;
    window.clearTimeout(lossUnsaid);
    lossUnsaid = null;
    assertive(S.stall_lost);
  }

  // `moved`: the room closed the socket because the table goes to another of its
  // processes (close code 1012): one sentence says so, and nothing more is said when the
  // new socket opens (the table resumes where it was).  `stalled`: the socket was given up
  // after seconds of silence: said at once (the grace has passed already).
  function connectionLost(moved, stalled) {
    if (!lost && helloSent) { // once, not on every retry
      quietReturn = Boolean(moved);
      if (moved) assertive(S.table_moved);
      else if (stalled) assertive(S.stall_lost);
      else lossUnsaid = window.setTimeout(() => { lossUnsaid = null; assertive(S.stall_lost); }, LOST_GRACE_MS);
    }
    lost = true;
    showConnection();
    retry = Math.min(retry + 1, 5);
    window.setTimeout(connect, 250 * 2 ** retry);
  }

  // The current socket is given up (stalled, or never opened): its late events are ignored.
  function abandon() {
    const old = socket;
    socket = null;
    try { old.close(); } catch (error) { /* closing a stalled socket may fail: it is gone */ }
    connectionLost(false, true);
  }

  function watch() {
    if (!socket) return;
    const now = Date.now();
    if (socket.readyState === WebSocket.OPEN) {
      if (now - heardAt > SILENT_MS && unansweredSince && now - unansweredSince > ANSWER_MS) {
        abandon();
        return;
      }
      if (now - pingAt >= PING_MS) {
        pingAt = now;
        pingNo += 1;
        if (!unansweredSince) unansweredSince = now;
        socket.send(JSON.stringify({ t: "ping", d: { n: pingNo } }));
      }
    } else if (socket.readyState === WebSocket.CONNECTING && now - openedAt > CONNECTING_MS) {
      abandon();
    }
  }
  window.setInterval(watch, 500);

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${scheme}//${location.host}/ws/table/${tableId}?heartbeat=1`);
    socket = ws;
    openedAt = Date.now();
    ws.addEventListener("open", () => {
      if (ws !== socket) return;
      retry = 0;
      heardAt = pingAt = Date.now();
      unansweredSince = 0;
      if (lossUnsaid !== null) {
        window.clearTimeout(lossUnsaid); // back within the grace: one sentence for both
        lossUnsaid = null;
        assertive(S.reconnected_quick);
      } else if (helloSent && lost && !quietReturn) assertive(S.reconnected);
      quietReturn = false;
      lost = false;
      helloSent = true;
      showConnection();
      // The moves not answered go again, as they were chosen (the server refuses one the
      // game has moved past, and confirms one it had already played).
      for (const move of moves.values()) { move.resent = true; transmit(move); }
    });
    ws.addEventListener("message", (message) => {
      if (ws !== socket) return;
      heardAt = Date.now();
      unansweredSince = 0;
      const frame = JSON.parse(message.data);
      // The server's heartbeat, answered here and now: a hidden tab's timers (and so its
      // own pings) may be slowed to one a minute, its event handlers are not.
      if (frame.t === "beat") { ws.send(JSON.stringify({ t: "beat", d: frame.d || {} })); return; }
      enqueue(frame);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== socket) return;
      socket = null;
      if (savedAway) return; // the table was saved: nothing to come back to here
      connectionLost(event.code === 1012, false);
    });
  }

  // ------------------------------------------------------------------ pace
  // The player's pace (settings, limits enforced by the server; the room's default until
  // they choose): frames that carry someone's card or bid are taken no faster than one per
  // `pace` seconds, in order; nothing is lost.  The player's own move is never held (it
  // answers a key just pressed, and a belote said after the card waits for it); it is the
  // move that arrives while the last view that came was the player's turn.  The move that
  // ends a trick holds the next one two paces (its result is heard, and seen), the end of a
  // hand three (the score, the new deal and its cards are said).  The lag is bounded: with
  // more than MAX_BEHIND moves waiting (a spectator of an all-bot table, a player whose bots
  // play on meanwhile), the page catches up: every frame waiting is shown and written in the
  // log, the last one is said, and one sentence says how many moves were not.
  const MAX_BEHIND = 8;
  const queue = [];
  let pacedAt = 0;
  let pacedGap = 1; // paces the next move waits after the last one shown
  let paceTimer = null;
  let sayNow = false; // after a catch-up: the newest move is not held
  let arrivedView = null; // the view of the last frame that came (not yet shown, perhaps)
  const PACED_KINDS = new Set(["card_played", "bid_made"]);

  function enqueue(frame) {
    if (frame.t === "pong") return; // the heartbeat's answer: heard, nothing more
    // Errors, confirmations and information answer the player's own keys: never held by
    // the pace.
    if (frame.t === "error" || frame.t === "done" || frame.t === "info") { receive(frame); return; }
    if (frame.d && frame.d.view) {
      const last = arrivedView;
      frame.own = Boolean(last && last.seat !== null && last.turn === last.seat && !last.finished);
      arrivedView = frame.d.view;
    }
    queue.push(frame);
    if (queue.filter(isPacedMove).length > MAX_BEHIND) catchUp();
    drain();
  }

  function isMove(frame) {
    return frame.t === "update" && frame.d.events.some((e) => PACED_KINDS.has(e.kind));
  }
  function isPacedMove(frame) { return isMove(frame) && !frame.own; }

  // Too far behind: all but the newest frame are shown without their sentences (kept in the
  // log), one sentence says how many moves were skipped, and the newest is said as usual.
  function catchUp() {
    if (paceTimer) { window.clearTimeout(paceTimer); paceTimer = null; }
    const skipped = queue.splice(0, queue.length - 1);
    let count = skipped.filter(isMove).length;
    if (skipUnsaid && pending.polite) {
      // Caught up again before the last catching up was said (a busy device takes frames in
      // bursts): one sentence for both, counting the others' moves drawn between them,
      // whose words had not been said either (they are in the log).  Anything else waiting
      // to be said (the player's own move, a held move's confirmation) stays.
      count += skipUnsaid.moves;
      for (const [from, to] of skipUnsaid.drops.reverse()) pending.polite.splice(from, to - from);
    }
    for (const frame of skipped) receive(frame, true);
    polite(fmt(S.pace_skipped, { count }));
    const at = pending.polite ? pending.polite.length : 0;
    skipUnsaid = at ? { drops: [[at - 1, at]], moves: count } : null;
    pacedAt = 0; // the newest is said now, with the sentence that counts the skipped
    moveSaidAt = 0;
    moveWordsWaiting = false;
    sayNow = true;
  }

  function drain() {
    if (paceTimer) return;
    while (queue.length) {
      const frame = queue[0];
      const events = frame.t === "update" ? frame.d.events : [];
      const move = events.some((e) => PACED_KINDS.has(e.kind));
      const paced = settings.pace > 0 && move && !frame.own && !sayNow;
      // The last move's words reach the live region a moment after it is drawn (later on a
      // busy device): the pause counts from when they did, and waits for them if they have not.
      const saidAt = moveWordsWaiting ? Date.now() : Math.max(pacedAt, moveSaidAt);
      const wait = saidAt + pacedGap * settings.pace * 1000 - Date.now();
      if (paced && (wait > 0 || moveWordsWaiting)) {
        paceTimer = window.setTimeout(() => { paceTimer = null; drain(); }, Math.max(wait, 20));
        return;
      }
      queue.shift();
      const handEnds = events.some((e) => e.kind === "hand_scored");
      const ends = handEnds || events.some((e) => e.kind === "trick_won");
      const before = pending.polite ? pending.polite.length : 0;
      receive(frame);
      if (move && !frame.own && skipUnsaid && pending.polite) {
        skipUnsaid.drops.push([before, pending.polite.length]);
        skipUnsaid.moves += 1;
      }
      if (move) sayNow = false;
      if (move || ends) { // the next move waits after this one (own moves too)
        // Counted from when this one is drawn and given to the live region, not from when
        // its frame was taken: on a busy device the drawing must not eat into the pause.
        pacedAt = Date.now();
        pacedGap = handEnds ? 3 : ends ? 2 : 1;
        moveWordsWaiting = Boolean(pending.polite);
      }
    }
  }

  // ------------------------------------------------------------------ categories and sounds
  const CATEGORY = {
    card_played: "plays", belote_announced: "plays", declaration_announced: "plays",
    declarations_resolved: "plays", declarations_shown: "plays", ottava_shown: "plays",
    bid_made: "bids", all_passed: "bids", contract_set: "bids", turned_card_taken: "bids",
    trick_won: "tricks", hand_scored: "scores", match_over: "scores", chat: "chat",
  };
  function said(kind) {
    const category = CATEGORY[kind];
    return !category || spokenCategories.has(category); // notices are always said
  }

  let audioFailed = false;
  const CUES = { turn: [660, 880], trick: [523], belote: [784, 988, 1175] };
  function cue(name) {
    if (!settings.sounds || audioFailed) return;
    try {
      window.salaChime(CUES[name], settings.volume, 0.12, 0.14);
    } catch (error) {
      audioFailed = true; // said once, not silently dropped
      assertive(S.ux_no_audio);
    }
  }

  // `quiet`: a frame skipped to catch up (its sentences go to the log only; an away summary,
  // said once, is still said).
  function receive(frame, quiet) {
    const data = frame.d;
    if (frame.t === "sync" || frame.t === "update") {
      // The version of the view on screen, the one a move pressed now was chosen on: only
      // from the frames that show a view (a `done` or an `error` bypasses the pace queue and
      // may be ahead of it).
      version = frame.v;
      const fresh = frame.t === "sync";
      // A sync brings the whole history (since 0), or only what a reconnect missed.
      if (fresh && !data.since) { $("log").textContent = ""; $("table-chat").textContent = ""; clearHistory(); }
      const spoken = [];
      for (const item of data.events) {
        remember(item);
        if (item.kind === "chat") addLog("table-chat", item.text);
        else addLog("log", item.text);
        if (!fresh && !quiet && said(item.kind)) spoken.push(item.text);
        // Back after a bot played for us: what it played, first, in one sentence.
        if (fresh && item.kind === "away_summary") spoken.push(item.text);
        if (!fresh && !quiet && item.kind === "trick_won") cue("trick");
        if (!fresh && !quiet && item.kind === "belote_announced") cue("belote");
      }
      playInFlight = false;
      render(data.view);
      if (fresh && !quiet) spoken.push(data.view.started ? statusLine() : waiting());
      const myTurn = view.turn !== null && view.turn === view.seat && !view.finished;
      // Said at every new step that is ours: after our own card that won the trick too.
      if (myTurn && !quiet && (fresh || view.step !== announcedStep)) {
        announcedStep = view.step;
        cue("turn");
        const bidding = (view.phase === "bidding" || view.phase === "cut") && view.prompt;
        const yourTurn = root.dataset.verbosity === "brief" ? S.your_turn_brief : S.your_turn;
        const prompt = promptToSay();
        spoken.push(bidding ? prompt : [yourTurn, prompt].filter(Boolean).join(" "));
      }
      if (!myTurn) announcedStep = null;
      if (spoken.length) polite(spoken.map(endSentence).join(" "));
      if (beloteQueued) { beloteQueued = false; announceBelote(); }
    } else if (frame.t === "info") {
      asked.delete(data.key);
      assertive(data.text);
    } else if (frame.t === "done") {
      const move = moves.get(data.move);
      moves.delete(data.move);
      if (move && data.already) polite(fmt(S.stall_held_played, { move: move.label }));
      showConnection();
    } else if (frame.t === "error") {
      playInFlight = false;
      beloteQueued = false;
      // Keys pressed too fast: no answer will come for what was asked, so the next press
      // asks again (said below, like every refusal) instead of being ignored for a while.
      if (data.code === "info_too_fast") asked.clear();
      if (data.code === "saved") savedGone();
      const move = data.move ? moves.get(data.move) : null;
      if (data.move) moves.delete(data.move);
      const reason = data.text + (data.detail ? " " + data.detail : "");
      // A move held through a lost connection and refused now: said with its name.
      assertive(move && move.resent ? fmt(S.stall_held_refused, { move: move.label, reason }) : reason);
      showConnection();
    }
  }

  // A long prompt is said in full the first time its kind comes in the match, then short
  // (B says it in full at any time).  Kept for the table in the tab's session, so a reload
  // does not say the long one again.
  const PROMPTS_SAID = "sala-prompts-" + tableId;
  function promptToSay() {
    if (!view.prompt_short) return view.prompt;
    let said = [];
    try { said = JSON.parse(window.sessionStorage.getItem(PROMPTS_SAID) || "[]"); } catch (error) { said = []; }
    if (said.includes(view.prompt_kind)) return view.prompt_short;
    said.push(view.prompt_kind);
    try { window.sessionStorage.setItem(PROMPTS_SAID, JSON.stringify(said)); } catch (error) { /* storage off: said in full again */ }
    return view.prompt;
  }

  // Several texts said as one announcement: each ends as a sentence, so that a screen reader
  // pauses between them (the brief ones, "West: 7 hearts", have no full stop of their own).
  function endSentence(text) {
    return /[.!?:;…»)]$/.test(text) ? text : text + ".";
  }

  // The table's own number of seats (4, 3 or 2).
  function waiting() {
    return fmt(S.waiting, { count: view && view.seats ? view.seats.length : root.dataset.seats || 4 });
  }

  function statusLine() {
    if (!view || !view.status) return "";
    return [view.status.trump, view.status.scores].join(" ");
  }

  // ------------------------------------------------------------------ rendering
  function button(label, onClick, aria, key) {
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = label;
    if (aria) b.setAttribute("aria-label", aria);
    if (key) b.dataset.key = key;
    b.addEventListener("click", onClick);
    return b;
  }

  // Lists are redrawn on every frame: keep the keyboard where it was (the same button, else
  // the next one in the same place, else the hand), never on the page's body.
  function focusKey() {
    const active = document.activeElement;
    if (!active || !root.contains(active) || active === $("hand")) return null;
    return { key: active.dataset.key || (active.id ? "#" + active.id : null), seat: active.dataset.seat };
  }

  function restoreFocus(before) {
    if (!before) return;
    const active = document.activeElement;
    if (active && active !== document.body && root.contains(active) && visible(active)) return;
    const byKey = before.key && (before.key.startsWith("#") ? $(before.key.slice(1)) :
      root.querySelector(`[data-key="${before.key}"]`));
    const sameSeat = before.seat !== undefined &&
      root.querySelector(`#seats button[data-seat="${before.seat}"]`);
    for (const candidate of [byKey, sameSeat, $("start-button"), $("hand")]) {
      if (candidate && visible(candidate)) { candidate.focus(); return; }
    }
  }

  function visible(element) {
    return element.isConnected && !element.closest("[hidden]");
  }

  function renderSeats() {
    const list = $("seats");
    list.textContent = "";
    const seated = view.seat !== null;
    view.seats.forEach((seat, n) => {
      const li = document.createElement("li");
      const where = S["seat_" + n];
      let who = seat.kind === "empty" ? S.empty : seat.name;
      const notes = [];
      if (seat.you) notes.push(S.you);
      if (seat.standin) notes.push(S.standin);
      else if (seat.away) notes.push(S.away);
      if (view.turn === n && view.started && !view.finished) notes.push(S.to_play);
      if (view.dealer === n && view.started) notes.push(S.dealer);
      li.textContent = `${where}: ${who}` + (notes.length ? ` (${notes.join(", ")})` : "");
      if (!view.started && !view.finished) {
        if (seat.kind === "empty") {
          // The visible text is the whole name (WCAG 2.5.3: speech users say what they see).
          if (!seated) li.appendChild(button(fmt(S.sit_at, { seat: where }), () => send("sit", { seat: n }), null, `sit-${n}`));
          else {
            for (const level of BOT_LEVELS) {
              li.appendChild(button(fmt(S.add_bot_level, { level: S["level_" + level] }),
                () => send("bot", { seat: n, level }),
                fmt(S.add_bot_at, { level: S["level_" + level], seat: where }), `bot-${n}-${level}`));
            }
          }
        } else if (seat.kind === "bot" && seated) {
          li.appendChild(button(S.remove_bot, () => send("unbot", { seat: n }), fmt(S.remove_bot_at, { seat: where }), `unbot-${n}`));
        }
      }
      // (a deal of the daily duplicate is its player's alone: no standing up, no stand-in)
      if (seat.you && !view.finished && !view.fixed_deal) li.appendChild(button(S.stand, () => send("stand"), null, "stand"));
      if (seat.you && seat.standin) li.appendChild(button(S.reclaim, () => send("hello"), null, "reclaim"));
      for (const b of li.querySelectorAll("button")) b.dataset.seat = n;
      list.appendChild(li);
    });
    const canStart = seated && !view.started && view.seats.every((s) => s.kind !== "empty");
    $("start-button").hidden = !canStart;
  }

  function cardItems(listId, cards, emptyText) {
    const list = $(listId);
    list.textContent = "";
    if (!cards || !cards.length) {
      const li = document.createElement("li");
      li.textContent = emptyText;
      list.appendChild(li);
      return;
    }
    for (const card of cards) {
      const li = document.createElement("li");
      const who = view.seats[card.seat] ? view.seats[card.seat].name : "";
      li.textContent = fmt(S.card_by, { card: card.name, player: who });
      list.appendChild(li);
    }
  }

  // The hand is updated in place: an option stays the same element while its card is held
  // (only what changed about it changes), and the active descendant is set only when the
  // selected card is another one.  A screen reader takes a new element, or a new active
  // descendant, for a new selection and says it again: rebuilt on every frame, the selected
  // card was re-read after every card anyone played.
  function renderHand() {
    const list = $("hand");
    // The card selected on screen (the view has already changed: a re-sorted hand, trump
    // first once the contract is made, moves cards under the old index).
    const active = list.getAttribute("aria-activedescendant") || "";
    const before = active.startsWith("card-") ? active.slice(5) : null;
    if (!view.hand.length) {
      list.removeAttribute("aria-activedescendant");
      if (list.children.length === 1 && list.firstElementChild.id === "card-none") return;
      const li = document.createElement("li");
      li.setAttribute("role", "option");
      li.setAttribute("aria-disabled", "true");
      li.id = "card-none";
      li.textContent = S.no_cards;
      list.replaceChildren(li);
      return;
    }
    const keep = view.hand.findIndex((c) => c.code === before);
    selected = keep >= 0 ? keep : Math.min(selected, view.hand.length - 1);
    const existing = new Map();
    for (const li of list.children) existing.set(li.id, li);
    view.hand.forEach((card, i) => {
      const id = "card-" + card.code;
      let li = existing.get(id);
      existing.delete(id);
      if (!li) {
        li = document.createElement("li");
        li.setAttribute("role", "option");
        li.id = id;
        li.dataset.face = "1";
        li.dataset.rank = face(card.code).rank;
        li.dataset.symbol = face(card.code).symbol;
        li.addEventListener("click", () => {
          const at = view.hand.findIndex((c) => c.code === card.code);
          if (at < 0) return;
          selected = at;
          renderSelection();
          playSelected(false);
        });
      }
      setIfChanged(li, "class", "card suit-" + card.suit + (card.playable ? " playable" : ""));
      setIfChanged(li, "aria-selected", i === selected ? "true" : "false");
      setIfChanged(li, "aria-disabled", card.playable ? "false" : "true");
      // Playable is said in words and marked with a sign, never by colour alone.  The face
      // (rank and suit symbol) is drawn by the style sheet from data attributes; the label
      // keeps the option's name the card's name alone.
      const label = card.name + (card.playable ? ` (${S.playable})` : "");
      if (li.textContent !== label) li.textContent = label;
      setIfChanged(li, "aria-label", label);
      if (list.children[i] !== li) list.insertBefore(li, list.children[i] || null);
    });
    for (const gone of existing.values()) gone.remove();
    setIfChanged(list, "aria-activedescendant", "card-" + view.hand[selected].code);
  }

  function setIfChanged(element, name, value) {
    if (element.getAttribute(name) !== value) element.setAttribute(name, value);
  }

  // The faces and the places are shared with the replay's board (cards.js).
  const { face, faceElement, ALL_PLACES } = window.SalaCards;
  // The drawing of the table (aria-hidden: the seat and trick lists say all of it).
  const place = (seat) => window.SalaCards.place(seat, view.seats.length, view.seat);

  function renderFelt() {
    const felt = $("felt");
    root.dataset.phase = view.started ? view.phase : "waiting"; // the style sheet's layout
    // A place no seat uses (the top with three players) stays empty.
    for (const where of ALL_PLACES) {
      const spot = felt.querySelector(".spot-" + where);
      spot.textContent = "";
      spot.classList.remove("turn");
      felt.querySelector(".played-" + where).textContent = "";
    }
    view.seats.forEach((seat, n) => {
      const spot = felt.querySelector(".spot-" + place(n));
      spot.textContent = seat.kind === "empty" ? S["seat_" + n] + ": " + S.empty : seat.name;
      const notes = [];
      if (view.started && view.dealer === n) notes.push(S.dealer);
      if (view.started && view.hand_sizes) notes.push(`(${view.hand_sizes[n]})`);
      if (notes.length) {
        const note = document.createElement("span");
        note.className = "note";
        note.textContent = notes.join(" · ");
        spot.appendChild(note);
      }
      spot.classList.toggle("turn", view.started && view.turn === n && !view.finished);
      const played = felt.querySelector(".played-" + place(n));
      played.textContent = "";
      const card = (view.trick || []).find((c) => c.seat === n);
      if (card) played.appendChild(faceElement(card.code));
    });
    const note = felt.querySelector(".felt-note");
    note.textContent = "";
    if (view.turned && view.phase === "bidding") note.appendChild(faceElement(view.turned.code));
    else if (view.contract) note.textContent = view.contract;
    if (view.high_bid && !view.contract) { // the bid that stands, not "no contract"
      const bid = document.createElement("span");
      bid.className = "high-bid";
      bid.textContent = view.high_bid;
      note.appendChild(bid);
    }
  }

  // The history's columns: hand, then each side's points, then each side's total (two teams,
  // or one column per player without partnerships); redrawn only when the sides change.
  let historySides = "";
  function renderHistoryHead() {
    const sides = view.sides || [];
    if (!sides.length || JSON.stringify(sides) === historySides) return;
    historySides = JSON.stringify(sides);
    const row = $("score-history").querySelector("thead tr");
    const handLabel = row.firstElementChild.textContent;
    row.textContent = "";
    for (const label of [handLabel, ...sides, ...sides.map((side) => fmt(S.seats_total, { side }))]) {
      const th = document.createElement("th");
      th.scope = "col";
      th.textContent = label;
      row.appendChild(th);
    }
    const none = $("score-rows").querySelector("td[colspan]");
    if (none) none.colSpan = 1 + 2 * sides.length;
  }

  function renderHistory() {
    renderHistoryHead();
    const body = $("score-rows");
    if (!view.history || !view.history.length) return;
    body.textContent = "";
    for (const row of view.history) {
      const tr = document.createElement("tr");
      for (const value of [row.hand, ...row.points, ...row.totals]) {
        const td = document.createElement("td");
        td.textContent = String(value);
        tr.appendChild(td);
      }
      body.appendChild(tr);
    }
  }

  function renderSelection() {
    const items = $("hand").querySelectorAll("li[role=option]");
    items.forEach((li, i) => setIfChanged(li, "aria-selected", i === selected ? "true" : "false"));
    if (view.hand[selected]) setIfChanged($("hand"), "aria-activedescendant", "card-" + view.hand[selected].code);
  }

  const MANY_CONTRACTS = 8; // more than this: level and suit pickers instead of buttons

  function renderChoices() {
    const box = $("choice-buttons");
    box.textContent = "";
    const choices = view.choices || [];
    $("choices").hidden = !choices.length;
    const contracts = choices.filter((c) => c.level !== undefined);
    const many = contracts.length > MANY_CONTRACTS;
    for (const choice of choices) {
      if (many && choice.level !== undefined) continue;
      if (choice.cut !== undefined) continue; // the cut picker, not 29 buttons
      box.appendChild(button(choice.label, () => sendMove("act", { a: choice.action }, choice.label), null, `choice-${choice.action}`));
    }
    const bidding = view.phase === "bidding" && choices.length > 0;
    showCommandBox(bidding);
    const options = $("bid-options");
    options.textContent = "";
    for (const choice of choices) {
      const option = document.createElement("option");
      option.value = choice.label;
      options.appendChild(option);
    }
    renderPickers(many ? contracts : []);
    renderCut(choices.filter((c) => c.cut !== undefined));
  }

  // The cut (seed 000): one number field for every legal depth (type it, or Up / Down), Enter
  // cuts; knocking stays a button.  It takes the keyboard when it appears, unless the player
  // is typing elsewhere (chat), since nothing else can be done before the deck is cut.
  function cutRange() {
    const depths = (view.choices || []).filter((c) => c.cut !== undefined).map((c) => c.cut);
    return depths.length ? { low: Math.min(...depths), high: Math.max(...depths) } : null;
  }

  function renderCut(cuts) {
    const form = $("cut-form");
    const wasHidden = form.hidden;
    form.hidden = !cuts.length;
    const range = cutRange();
    if (!range) return;
    const input = $("cut-depth");
    input.min = String(range.low);
    input.max = String(range.high);
    $("cut-label").textContent = fmt(S.cut_label, range);
    if (!wasHidden) return;
    input.value = String(Math.round((range.low + range.high) / 2));
    const active = document.activeElement;
    if (!active || !active.closest("input, textarea, select, dialog")) input.focus();
  }

  function sendCut() {
    const range = cutRange();
    if (!range) { assertive(S.ux_no_choices); return; }
    const text = $("cut-depth").value.trim();
    const depth = /^\d+$/.test(text) ? Number(text) : NaN;
    const choice = (view.choices || []).find((c) => c.cut === depth);
    // A move like a card: numbered, held through a stall, confirmed or refused by name.
    if (choice) sendMove("act", { a: choice.action }, choice.label);
    else assertive(fmt(S.cut_range, range));
  }

  function renderPickers(contracts) {
    $("bid-pickers").hidden = !contracts.length;
    if (!contracts.length) return;
    const levelSelect = $("pick-level");
    const suitSelect = $("pick-suit");
    const keepLevel = levelSelect.value;
    const keepSuit = suitSelect.value;
    levelSelect.textContent = "";
    suitSelect.textContent = "";
    const levels = [...new Set(contracts.map((c) => c.level))];
    for (const level of levels) levelSelect.appendChild(new Option(String(level), String(level)));
    const suits = new Map(contracts.map((c) => [c.suit, c.suit_name]));
    for (const [suit, name] of suits) suitSelect.appendChild(new Option(name, String(suit)));
    if (levels.map(String).includes(keepLevel)) levelSelect.value = keepLevel;
    if ([...suits.keys()].map(String).includes(keepSuit)) suitSelect.value = keepSuit;
  }

  function render(next) {
    const before = focusKey();
    const couldStart = !$("start-button").hidden;
    draw(next);
    if (firstRender) { firstRender = false; initialFocus(); return; }
    if (!couldStart && !$("start-button").hidden) {
      // The last seat just filled: the start control, not "Remove the bot", has focus.
      $("start-button").focus();
      return;
    }
    restoreFocus(before);
  }

  // After a page load (a reload, a form sent, a table just created): back where the player
  // was (focus.js kept it), else on the hand if seated in a match, else on the first seat.
  function initialFocus() {
    const active = document.activeElement;
    if (active && active !== document.body && active.id !== "main") return;
    const kept = window.salaFocusTarget ? window.salaFocusTarget() : null;
    const seatButton = $("seats").querySelector("button");
    const seated = view.seat !== null && view.started && !view.finished;
    // A spectator of a match has no hand: the game's part of the page, not an empty hand.
    const watching = view.seat === null && view.started ? $("play-heading") : null;
    for (const candidate of [kept, seated ? $("hand") : null, watching, $("start-button"), seatButton, $("hand")]) {
      if (candidate && visible(candidate)) { candidate.focus(); return; }
    }
  }

  // The pause between hands, the end of the match (replay, rematch).
  function renderBetweenHands() {
    const seated = view.seat !== null;
    const paused = Boolean(view.paused) && seated && !view.ready.includes(view.seat);
    const nextButton = $("next-hand");
    const wasHidden = nextButton.hidden;
    nextButton.hidden = !paused;
    if (paused && wasHidden) { polite(S.ux_paused); nextButton.focus(); }
    const end = $("match-end");
    const endWasHidden = end.hidden;
    end.hidden = !view.finished;
    const rematch = $("rematch-form"); // (none at a deal of the daily duplicate)
    if (rematch) rematch.hidden = !seated;
    if (view.rematch) {
      $("rematch-note").hidden = false;
      const link = $("rematch-link");
      link.href = "/table/" + view.rematch;
      link.textContent = fmt(S.ux_rematch_link, { number: view.rematch });
    }
    if (view.finished && endWasHidden) $("replay-link").focus();
  }

  // Saving the match to resume it later (docs/room.md, "Saved games"): the request, the
  // vote of the others seated, a resumed table waiting for its people, and the end.
  let savedAway = false;
  function renderSave() {
    const seated = view.seat !== null && view.seat !== undefined;
    const playing = view.started && !view.finished;
    const vote = view.save_vote;
    const kept = view.seats.filter((seat) => seat.kept).map((seat) => seat.name);
    $("save-area").hidden = savedAway || !(playing && (seated || kept.length));
    $("save-button").hidden = !seated || Boolean(vote);
    const asked = Boolean(vote) && seated && vote.asked.includes(view.seat) && !vote.agreed.includes(view.seat);
    const wasHidden = $("save-yes").hidden;
    $("save-yes").hidden = !asked;
    $("save-no").hidden = !asked;
    let status = "";
    if (vote) {
      status = fmt(S["saved.js.vote"], { player: view.seats[vote.asker].name, agreed: vote.agreed.length, asked: vote.asked.length });
    } else if (kept.length) {
      status = fmt(S["saved.js.waiting"], { players: kept.join(", ") });
    }
    $("save-status").textContent = status;
    if (asked && wasHidden) $("save-yes").focus();
  }

  function savedGone() {
    savedAway = true;
    $("save-area").hidden = true;
    $("save-gone").hidden = false;
    $("save-gone-link").focus();
  }

  function draw(next) {
    view = next;
    renderSave();
    renderSeats();
    renderFelt();
    renderHistory();
    renderBetweenHands();
    if (!view.started) {
      $("turn").textContent = waiting();
      view.hand = [];
      renderHand();
      $("choices").hidden = true;
      renderBelote();
      return;
    }
    // No one's turn: the match is over, or the next hand is being dealt (say nothing).
    $("turn").textContent = view.finished || view.phase === "over" ? S.match_over :
      view.turn === null ? "" :
        (view.turn === view.seat ? S.your_turn : fmt(S.turn_of, { player: view.turn_name }));
    $("contract").textContent = view.contract || view.high_bid || "—";
    // The numbers alone: the term before says "Scores" (the S key says the sentence).
    $("scores").textContent = (view.sides || []).map((side, i) => `${side} ${(view.totals || [])[i]}`).join(", ") || view.status.scores;
    $("turned").textContent = view.turned ? view.turned.name : "—";
    cardItems("trick", view.trick, S.no_cards_on_table);
    cardItems("last-trick", view.last_trick, S.no_last_trick);
    renderHand();
    renderChoices();
    renderBelote();
  }

  // Belote by touch (Space on a keyboard): a button that announces it, or one for each card
  // that may be played with it, named with what it does (a phone has no Space key; a tap on
  // the card plays it without the announcement).
  function renderBelote() {
    const box = $("belote-buttons");
    box.textContent = "";
    const playing = view.started && !view.finished && view.phase === "playing" && view.seat !== null;
    if (playing && view.belote) {
      box.appendChild(button(box.dataset.now, () => COMMANDS.belote(), null, "belote-now"));
    }
    const mine = playing && view.turn === view.seat;
    for (const card of mine ? view.hand.filter((c) => c.announce) : []) {
      box.appendChild(button(fmt(box.dataset.with, { card: card.name }), () => {
        selected = view.hand.findIndex((c) => c.code === card.code);
        if (selected < 0) { selected = 0; return; }
        renderSelection();
        playSelected(true);
      }, null, "belote-" + card.code));
    }
    box.hidden = !box.children.length;
  }

  // ------------------------------------------------------------------ actions
  function playSelected(announce) {
    if (!view || !view.started) return;
    const card = view.hand[selected];
    if (!card) { assertive(S.no_cards); return; }
    if (view.turn !== view.seat) { assertive(S.not_your_turn); return; }
    if (view.phase === "bidding") { assertive(S.ux_bid_first); return; }
    if (!card.playable) { assertive(fmt(S.not_playable, { card: card.name })); return; }
    const base = announce && card.announce ? 32 : 0;
    if (sendMove("act", { a: base + cardId(card.code) }, card.name)) playInFlight = isOpen();
  }

  const SUITS = window.SalaCards.SUITS;
  const RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"];
  function cardId(code) {
    const suit = SUITS.indexOf(code.slice(-1));
    const rank = RANKS.indexOf(code.slice(0, -1));
    return suit * 8 + rank;
  }

  function moveSelection(step) {
    if (!view || !view.hand.length) return;
    selected = (selected + step + view.hand.length) % view.hand.length;
    renderSelection();
  }

  function jumpSuit(step) {
    if (!view || !view.hand.length) return;
    const suit = view.hand[selected].suit;
    const n = view.hand.length;
    for (let k = 1; k <= n; k++) {
      const i = (selected + step * k + n * k) % n;
      if (view.hand[i].suit !== suit) {
        selected = i;
        if (step < 0) { // land on the first card of that suit
          while (selected > 0 && view.hand[selected - 1].suit === view.hand[i].suit) selected--;
        }
        renderSelection();
        return;
      }
    }
    assertive(S.one_suit);
  }

  const COMMANDS = {
    play(event) {
      const inHand = document.activeElement === $("hand");
      if (view && !view.started) { send("start"); return; }
      if (inHand) playSelected(false);
      else if (event.target.contains(root)) assertive(S.hand_first);
    },
    table() { assertive(view && view.status ? view.status.table : waiting()); },
    trump() { assertive(view && view.status ? view.status.trump : waiting()); },
    lead() { assertive(view && view.status ? view.status.lead : waiting()); },
    scores() { assertive(view && view.status ? view.status.scores : waiting()); },
    last_trick() {
      if (!view || !view.last_trick || !view.last_trick.length) { assertive(S.no_last_trick); return; }
      assertive(view.last_trick.map((c) => fmt(S.card_by, { card: c.name, player: view.seats[c.seat].name })).join("; "));
    },
    hand() {
      if (!view || !view.hand || !view.hand.length) { assertive(S.no_cards); return; }
      assertive(view.hand.map((c) => c.name).join(", "));
    },
    belote() {
      if (playInFlight) { beloteQueued = true; return; } // said once the card's frame is back
      if (view && view.belote) { sendMove("act", { a: 72 }, S.stall_belote); return; }
      const card = view && view.hand[selected];
      if (card && card.announce && view.turn === view.seat) { playSelected(true); return; }
      announceBelote();
    },
    bidding() { info("bidding"); },
    contract() { info("contract"); },
    points() { info("points"); },
    winner() { info("winner"); },
    team() { info("team"); },
    summary() { info("summary"); },
    next_playable() {
      if (!view || !view.hand || !view.hand.some((c) => c.playable)) { assertive(S.ux_no_playable); return; }
      const n = view.hand.length;
      for (let k = 1; k <= n; k++) {
        const i = (selected + k) % n;
        if (view.hand[i].playable) { selected = i; break; }
      }
      const moved = $("hand").getAttribute("aria-activedescendant") !== "card-" + view.hand[selected].code;
      renderSelection();
      // The new active option is said by the screen reader: saying it too would say it twice.
      if (document.activeElement !== $("hand")) $("hand").focus();
      else if (!moved) assertive(view.hand[selected].name);
    },
    choices() { assertive(view && view.prompt ? view.prompt : S.ux_no_choices); },
    declare() {
      const options = view ? (view.choices || []).filter((c) => c.declare) : [];
      if (!options.length) { assertive(S.ux_nothing_to_declare); return; }
      if (options.length === 1) { sendMove("act", { a: options[0].action }, options[0].label); return; }
      // Several on one key: a numbered list, the next key picks (Escape: none).
      declareMenu = options;
      assertive(fmt(S.ux_declare_menu, { options: view.declare_list }));
    },
    bid_box() {
      if (!$("cut-form").hidden) { $("cut-depth").focus(); return; }
      if ($("bid-form").hidden) { assertive(S.ux_no_choices); return; }
      $("bid-text").focus();
    },
    history_back() { stepHistory(-1); },
    history_forward() { stepHistory(1); },
    history_category_back() { changeCategory(-1); },
    history_category_forward() { changeCategory(1); },
    repeat() { repeatLatest(); },
    help() { openHelp(); },
    pace() {
      // The pace and the verbosity are the page's preferences form (saved in place, see
      // savePreferences: nothing waiting is lost); back on the hand afterwards.
      const field = $("pref-pace");
      if (!field) return;
      const form = field.closest("form");
      if (form) form.dataset.focusAfter = "hand";
      // The preferences fold, in the site's menu, on a narrow screen: open both.
      for (let box = field.closest("details"); box; box = box.parentElement.closest("details")) {
        box.open = true;
      }
      field.focus();
    },
    move(event) { moveSelection(event.key === "ArrowRight" ? 1 : -1); },
    suit(event) { jumpSuit(event.key === "ArrowDown" ? 1 : -1); },
    ends(event) {
      if (!view || !view.hand.length) return;
      selected = event.key === "Home" ? 0 : view.hand.length - 1;
      renderSelection();
    },
  };

  // The information keys' answers are made by the room when a key asks: the page sends
  // "info" with the question and says the `info` frame that answers it (the room's frames
  // carry no answers; a view that does, as the scripted views of older browser tests do, is
  // read at once).  A question waiting for its answer is not sent again (a key held down),
  // unless the answer is long overdue (a lost frame) or the room refused it as too fast.
  const asked = new Map(); // question -> when it was sent
  const ASK_AGAIN_MS = 3000;
  function info(question) {
    if (!view || !view.started) { assertive(waiting()); return; }
    if (view.info && question in view.info) { assertive(view.info[question]); return; }
    if (Date.now() - (asked.get(question) || 0) < ASK_AGAIN_MS) return;
    if (send("info", { key: question })) asked.set(question, Date.now());
  }

  // Space refused: the reason that applies (the king first, with the card, too late).
  function announceBelote() {
    if (view && view.belote) { sendMove("act", { a: 72 }, S.stall_belote); return; }
    const card = view && view.hand[selected];
    assertive((card && card.belote_why) || (view && view.belote_why) || S.no_belote);
  }

  // ------------------------------------------------------------------ history
  // Comma and period step through one category of the history (the channels of the best
  // rooms: all, the cards played, the bids, the tricks, the scores, the chat); < and >
  // change the category, saying its name and how many messages it holds; R says its latest
  // message.  The place in a category is kept while new messages come (they go after it),
  // and starts again after the latest when the category changes or a sync brings the
  // history anew.  Every message is kept, whether its category is spoken or not.
  const HISTORY_CATEGORIES = ["all", "plays", "bids", "tricks", "scores", "chat"];
  const HISTORY_KEPT = 5000; // more than the table keeps for a sync (a whole match)
  let historyCategory = 0;
  let historyAt = null; // index in the category's messages; null: after the latest

  function remember(item) {
    history.push({ category: CATEGORY[item.kind] || "", text: item.text });
    if (history.length > HISTORY_KEPT) { history.shift(); historyAt = null; }
  }

  function clearHistory() {
    history.length = 0;
    historyAt = null;
  }

  function historyMessages() {
    const category = HISTORY_CATEGORIES[historyCategory];
    return category === "all" ? history : history.filter((m) => m.category === category);
  }

  function sayCategory() {
    const count = historyMessages().length;
    // (no count is said for none; one is singular in every language of the room, 0 aside)
    const key = count === 0 ? "history_empty_category" : count === 1 ? "history_category.one" : "history_category";
    assertive(fmt(S[key], { category: S["history_cat_" + HISTORY_CATEGORIES[historyCategory]], count }));
  }

  function changeCategory(step) {
    const n = HISTORY_CATEGORIES.length;
    historyCategory = (historyCategory + step + n) % n;
    historyAt = null;
    sayCategory();
  }

  function stepHistory(step) {
    const messages = historyMessages();
    if (!messages.length) { if (history.length) sayCategory(); else assertive(S.ux_history_empty); return; }
    const from = historyAt === null ? messages.length : historyAt;
    historyAt = Math.max(0, Math.min(messages.length - 1, from + step));
    const text = messages[historyAt].text;
    if (historyAt === 0) assertive(fmt(S.ux_history_first, { text }));
    else if (historyAt === messages.length - 1) assertive(fmt(S.ux_history_last, { text }));
    else assertive(text);
  }

  function repeatLatest() {
    const messages = historyMessages();
    if (!messages.length) { if (history.length) sayCategory(); else assertive(S.ux_history_empty); return; }
    historyAt = messages.length - 1;
    assertive(messages[historyAt].text);
  }

  function openHelp() {
    const dialog = $("keys-help");
    if (dialog.open) return;
    dialog.showModal();
    // The list from its top: the dialog would focus its first control, the Close button
    // at the bottom, and open scrolled past every key.
    $("keys-title").focus();
    dialog.scrollTop = 0;
  }

  // The declaration menu (D with several options) takes the next key: its number picks one,
  // Escape closes it saying nothing was declared; any other key closes it and does its own
  // work.  An option no longer open when its number comes is refused, not sent.
  let declareMenu = null;
  function pickFromMenu(event) {
    const options = declareMenu;
    declareMenu = null;
    if (event.key === "Escape") { event.preventDefault(); assertive(S.ux_declare_cancelled); return true; }
    const n = /^[1-9]$/.test(event.key) ? Number(event.key) : 0;
    if (!n) return false;
    event.preventDefault();
    const choice = options[n - 1];
    const open = choice && (view.choices || []).some((c) => c.action === choice.action);
    if (open) sendMove("act", { a: choice.action }, choice.label);
    else assertive(S.ux_nothing_to_declare);
    return true;
  }

  const LEAVE_WITH_ESCAPE = ["bid-text", "cut-depth", "pick-level", "pick-suit", "table-chat-text"];

  function findBinding(key, inHand) {
    return bindings.find((b) => b.keys.includes(key) && (b.scope === "table" || inHand));
  }

  document.addEventListener("keydown", (event) => {
    // F1 opens the list from anywhere on the page (the browser's own help is not wanted here).
    if (event.key === "F1") { event.preventDefault(); openHelp(); return; }
    const target = event.target;
    // The table's keys work on the table and around it (the body, the main region).
    if (!root.contains(target) && !target.contains(root)) return;
    const typing = target.closest("input, textarea, select, dialog");
    if (typing && event.key === "Escape" && LEAVE_WITH_ESCAPE.includes(target.id)) {
      // Out of the box, back to the hand (the box keeps what was typed); a spectator, who
      // has no hand, back to the game.
      event.preventDefault();
      (view && view.seat === null ? $("play-heading") : $("hand")).focus();
      return;
    }
    if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
    const onButton = target.tagName === "BUTTON" || target.tagName === "SUMMARY" || target.tagName === "A";
    if (onButton && (event.key === "Enter" || event.key === " ")) return; // let buttons work
    if (declareMenu && pickFromMenu(event)) return;
    const binding = findBinding(event.key, target === $("hand"));
    if (!binding) return;
    event.preventDefault();
    COMMANDS[binding.command](event);
  });

  $("help-button").addEventListener("click", openHelp);
  $("next-hand").addEventListener("click", () => send("next"));
  $("save-button").addEventListener("click", () => send("save"));
  $("save-yes").addEventListener("click", () => send("save_vote", { yes: true }));
  $("save-no").addEventListener("click", () => send("save_vote", { yes: false }));
  $("start-button").addEventListener("click", () => send("start"));
  $("hand").addEventListener("focus", () => {
    if (view && view.hand && view.hand[selected]) renderSelection();
  });
  // The command box takes a bid on your turn to bid, and a card all through the card play
  // (one typed before your turn is refused, with the reason); its label says which.
  const BOX_WORDS = {
    bid: [$("bid-label").textContent, $("bid-send").textContent],
    card: [S.box_card, S.box_card_send],
  };
  function showCommandBox(bidding) {
    // Open to a seated player through the whole auction and play, not only at their turn:
    // a box that hid once the bid was sent left the keys typed next to the table's hotkeys.
    const seated = view.seat !== null && view.seat !== undefined && view.started && !view.finished;
    const playing = seated && view.phase === "playing";
    $("bid-form").hidden = !(bidding || playing || (seated && view.phase === "bidding"));
    const [label, sendLabel] = BOX_WORDS[playing ? "card" : "bid"];
    if ($("bid-label").textContent !== label) $("bid-label").textContent = label;
    if ($("bid-send").textContent !== sendLabel) $("bid-send").textContent = sendLabel;
  }
  $("bid-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("bid-text");
    if (input.value.trim() && sendMove("bid", { text: input.value }, input.value.trim())) input.value = "";
  });
  $("cut-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sendCut();
  });
  $("pick-send").addEventListener("click", () => {
    const level = Number($("pick-level").value);
    const suit = Number($("pick-suit").value);
    const choice = (view.choices || []).find((c) => c.level === level && c.suit === suit);
    if (choice) sendMove("act", { a: choice.action }, choice.label);
    else assertive(S.ux_no_choices);
  });
  $("table-chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("table-chat-text");
    if (input.value.trim() && send("chat", { text: input.value })) input.value = "";
  });

  // ------------------------------------------------------------------ preferences
  // Saved in place on the table page (no reload: the moves waiting for the pace are still
  // said, the moves held are still held), and applied to the page at once.  A new language
  // changes every text of the page: that one reloads it.  Without scripts the form posts and
  // the page reloads, as everywhere.
  const prefsForm = document.querySelector("form.prefs");
  if (prefsForm && window.fetch) prefsForm.addEventListener("submit", (event) => {
    const lang = prefsForm.querySelector("#pref-lang");
    if (lang && lang.value !== document.documentElement.lang) return;
    // "Use my account's settings here" may change every setting, the language too: posted.
    if (event.submitter && event.submitter.id === "pref-forget") return;
    event.preventDefault();
    savePreferences(new URLSearchParams(new FormData(prefsForm)));
  });

  async function savePreferences(body) {
    let answer = null;
    try {
      const response = await fetch(prefsForm.action, {
        method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" },
      });
      answer = await response.json();
    } catch (error) {
      assertive(S.prefs_not_saved);
      return;
    }
    if (answer.error) { assertive(answer.error); return; } // nothing changed: said why
    applySettings(answer);
    // Where the settings in force now come from (this device, the account), as the form says.
    if ($("pref-source")) $("pref-source").textContent = answer.source_text;
    if ($("pref-forget")) $("pref-forget").hidden = !answer.device_own;
    assertive(answer.saved);
    // Back to the game (V came from it; in a match the hand is where the player plays),
    // not left on the Save button below the table.
    const playing = view && view.started && !view.finished && view.seat !== null;
    if (prefsForm.dataset.focusAfter === "hand" || playing) {
      delete prefsForm.dataset.focusAfter;
      $("hand").focus();
    }
  }

  function applySettings(answer) {
    const chosen = answer.settings;
    const resorted = chosen.suits !== settings.suits || chosen.trump_first !== settings.trump_first;
    Object.assign(settings, chosen);
    spokenCategories.clear();
    for (const category of chosen.speak || []) spokenCategories.add(category);
    document.body.dataset.settings = JSON.stringify(chosen);
    for (const [prefix, value] of [["theme-", chosen.theme], ["deck-", chosen.deck]]) {
      for (const name of [...document.body.classList]) {
        if (name.startsWith(prefix)) document.body.classList.remove(name);
      }
      document.body.classList.add(prefix + value);
    }
    // The new pace applies to the moves already waiting.
    if (paceTimer) { window.clearTimeout(paceTimer); paceTimer = null; }
    drain();
    if (answer.verbosity !== root.dataset.verbosity || resorted) {
      // The sentences are made by the room for each socket: a new one speaks the new
      // length (its sync comes after the moves already waiting; the held moves go again),
      // and its views hold the hand in the new order.
      root.dataset.verbosity = answer.verbosity;
      const old = socket;
      socket = null;
      if (old) { try { old.close(); } catch (error) { /* gone already */ } }
      connect();
    }
  }

  connect();
})();
