// The lobby: its list of tables follows the room live (the server sends what changed), and
// the lobby chat.  Rows are built like templates/_tables.html builds them; a change patches
// only the parts of a row that differ, so the keyboard focus stays where it is.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const section = $("tables-section");
  const data = JSON.parse(section.dataset.lobby);
  const S = data.strings;
  let socket = null;
  let retry = 0;

  function text(key, values) {
    const pattern = S[key];
    if (pattern === undefined) throw new Error(`missing message ${key}`);
    return pattern.replace(/\{(\w+)\}/g, (_, name) => String(values ? values[name] : ""));
  }

  const settings = JSON.parse(document.body.dataset.settings || "{}");
  const speak = new Set(settings.speak || ["chat", "lobby"]);

  function say(sentence) {
    const region = $("lobby-polite");
    region.textContent = "";
    window.setTimeout(() => { region.textContent = sentence; }, 30);
  }

  function addChat(line) {
    const li = document.createElement("li");
    li.textContent = line;
    const list = $("chat-log");
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    list.appendChild(li);
    if (atEnd) list.scrollTop = list.scrollHeight;
  }

  // ------------------------------------------------------------------ building rows
  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    for (const child of children || []) {
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function hidden(name, value) {
    return el("input", { type: "hidden", name, value: String(value) });
  }

  function seatForm(table, action, next, seatNo, controls) {
    const inputs = seatNo === null ? [] : [hidden("seat", seatNo)];
    return el("form", { method: "post", action: `/tables/${table.id}/${action}`,
      class: "inline-form" }, [...inputs, hidden("next", next), ...controls]);
  }

  function seatPart(table, seat, n, signedIn) {
    const position = text(`web.seat.position.${n}`);
    const li = el("li", { "data-part": `seat-${n}` }, [`${position}: `]);
    const waiting = table.status === "waiting";
    if (seat.kind === "empty") {
      li.append(text("web.seat.empty"), " ");
      if (signedIn && waiting) {
        li.append(seatForm(table, "sit", `/table/${table.id}`, n, [el("button",
          { type: "submit", "data-focus": "sit" },
          [text("web.seat.sit_at", { table: table.id, seat: position })])]));
      }
      if (table.seated && waiting) {
        const id = `level-${table.id}-${n}`;
        const select = el("select", { id, name: "level", "data-focus": "level" },
          data.levels.filter((level) => table.seats.length >= (data.fewest_players[level] || 2)).map((level) => {
            const option = el("option", { value: level }, [text(`web.level.${level}`)]);
            if (level === "normal") option.selected = true;
            return option;
          }));
        li.append(seatForm(table, "bot", "/", n, [
          el("label", { for: id }, [text("web.seat.bot_level")]), " ", select, " ",
          el("button", { type: "submit", "data-focus": "bot", "aria-label":
            text("web.seat.add_bot_at", { table: table.id, seat: position }) },
          [text("web.seat.add_bot")])]));
      }
    } else {
      li.append(seat.name, " ");
      if (seat.kind === "bot" && table.seated && waiting) {
        li.append(seatForm(table, "unbot", "/", n, [el("button", { type: "submit",
          "data-focus": "unbot", "aria-label": text("web.seat.remove_bot_at",
            { table: table.id, seat: position }) }, [text("web.seat.remove_bot")])]));
      } else if (seat.mine) {
        li.append(seatForm(table, "stand", "/", null, [el("button", { type: "submit",
          "data-focus": "stand", "aria-label": text("web.seat.stand_at", { table: table.id }) },
        [text("web.seat.stand")])]));
      }
    }
    return li;
  }

  function buildRow(table, signedIn) {
    const status = el("td", { "data-part": "status" },
      [text(`web.lobby.status.${table.status}`), " "]);
    if (table.watchers) {
      status.append(`(${text("web.lobby.watchers", { count: table.watchers })}) `);
    }
    status.append(el("a", { href: `/table/${table.id}`, "data-focus": "watch" },
      [text("web.lobby.watch", { number: table.id })]));
    const row = el("tr", { id: `table-row-${table.id}`, "data-id": String(table.id),
      "data-open": isOpen(table) ? "1" : "0" }, [
      el("th", { scope: "row", "data-part": "head" }, [el("a", { href: `/table/${table.id}`,
        "data-focus": "link" }, [text("web.lobby.table_link",
        { number: table.id, preset: table.preset })])]),
      el("td", { "data-part": "rules" }, [el("ul", {},
        table.rules.map((line) => el("li", {}, [line])))]),
      el("td", {}, [el("ul", {}, table.seats.map((seat, n) => seatPart(table, seat, n,
        signedIn)))]),
      status,
    ]);
    // What each part was built from: a later summary rebuilds only the parts that differ.
    for (const part of row.querySelectorAll("[data-part]")) {
      part.dataset.sig = JSON.stringify(signature(table, part.dataset.part, signedIn));
    }
    return row;
  }

  function signature(table, part, signedIn) {
    if (part === "head") return [table.preset];
    if (part === "rules") return table.rules;
    if (part === "status") return [table.status, table.watchers];
    const n = Number(part.split("-")[1]);
    return [table.seats[n], table.seated, table.status, signedIn];
  }

  // ------------------------------------------------------------------ order and window
  function isOpen(table) { return table.status === "waiting" && table.free > 0; }

  // The server's order (lobby.order_key): tables with a free seat first, then by number.
  function keyOf(open, id) { return [open ? 0 : 1, id]; }
  function rowKey(row) { return keyOf(row.dataset.open === "1", Number(row.dataset.id)); }
  function before(a, b) { return a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]); }

  const state = { page: 1, pages: 1, size: 50 };

  function readPage() {
    const info = $("tables-page");
    if (!info) return;
    state.page = Number(info.dataset.page);
    state.pages = Number(info.dataset.pages);
    state.size = Number(info.dataset.size);
  }

  function signedIn() {
    const info = $("tables-page");
    return Boolean(info && info.dataset.signedIn === "1");
  }

  function rows() { return [...$("tables-body").querySelectorAll(":scope > tr")]; }

  // Whether a table with this key belongs among the rows this page shows.
  function inWindow(key) {
    const shown = rows();
    if (!shown.length) return state.page === 1;
    const first = rowKey(shown[0]);
    const last = rowKey(shown[shown.length - 1]);
    return (state.page === 1 || before(first, key)) &&
      (state.page >= state.pages || before(key, last));
  }

  function focusInside(node) {
    return node.contains(document.activeElement) && document.activeElement !== document.body;
  }

  // ------------------------------------------------------------------ applying changes
  function place(row, key) {
    const body = $("tables-body");
    const next = rows().find((other) => other !== row && before(key, rowKey(other)));
    if (next) {
      if (row.nextElementSibling !== next) body.insertBefore(row, next);
    } else if (body.lastElementChild !== row) {
      body.appendChild(row);
    }
  }

  function removeRow(row) {
    if (focusInside(row)) {
      // Focus goes to the next table's link, else the previous one's, else the heading.
      const neighbour = row.nextElementSibling || row.previousElementSibling;
      const target = neighbour ? neighbour.querySelector("[data-focus=link]") : null;
      row.remove();
      (target || $("tables-heading")).focus();
    } else {
      row.remove();
    }
  }

  function patchRow(row, fresh) {
    for (const part of fresh.querySelectorAll("[data-part]")) {
      const old = row.querySelector(`[data-part="${part.dataset.part}"]`);
      if (!old || old.dataset.sig === part.dataset.sig) continue;
      if (focusInside(old) && old.dataset.sig === undefined) {
        // Rendered by the server a moment ago and in use: keep it, take the new signature.
        old.dataset.sig = part.dataset.sig;
        continue;
      }
      const focused = focusInside(old) ? document.activeElement.dataset.focus : null;
      old.replaceWith(part);
      if (focused) {
        const same = part.querySelector(`[data-focus="${focused}"]`);
        (same || row.querySelector("[data-focus=link]")).focus();
      }
    }
    row.dataset.open = fresh.dataset.open;
  }

  function upsert(table) {
    const existing = $(`table-row-${table.id}`);
    const key = keyOf(isOpen(table), table.id);
    if (existing) {
      patchRow(existing, buildRow(table, signedIn()));
      if (focusInside(existing)) return; // never move the row the keyboard is in
      existing.remove();
      if (inWindow(key)) place(existing, key);
      return;
    }
    if (inWindow(key)) {
      const row = buildRow(table, signedIn());
      place(row, key);
    }
  }

  function apply(changes) {
    for (const change of changes) {
      if (change.op === "remove") {
        const row = $(`table-row-${change.id}`);
        if (row) removeRow(row);
      } else {
        upsert(change.table);
      }
    }
    showing();
  }

  function setTotal(total) {
    state.pages = Math.max(1, Math.ceil(total / state.size));
    const info = $("tables-page");
    if (info) info.dataset.pages = String(state.pages);
    const of = $("tables-page-of");
    if (of) of.textContent = text("lobby.pages.of", { page: state.page, pages: state.pages });
    const nav = $("tables-pages");
    if (!nav || focusInside(nav)) return; // links under the keyboard stay as they are
    const next = nav.querySelector("a[rel=next]");
    if (state.page < state.pages && !next) {
      nav.querySelector("ul").append(el("li", {}, [el("a",
        { href: `/?page=${state.page + 1}`, rel: "next" }, [text("lobby.pages.next")])]));
    } else if (state.page >= state.pages && next) {
      next.parentElement.remove();
    }
    nav.hidden = state.pages < 2 && state.page === 1;
  }

  function showing() {
    const any = rows().length > 0;
    $("tables-table").hidden = !any;
    $("tables-none").hidden = any;
  }

  // A (re)connection: the page's rows become exactly the ones the server lists there.
  function resync(d) {
    const wanted = new Set(d.tables.map((table) => table.id));
    for (const row of rows()) {
      if (!wanted.has(Number(row.dataset.id))) removeRow(row);
    }
    for (const table of d.tables) {
      const existing = $(`table-row-${table.id}`);
      const key = keyOf(isOpen(table), table.id);
      if (existing) {
        patchRow(existing, buildRow(table, signedIn()));
        if (!focusInside(existing)) place(existing, key);
      } else {
        place(buildRow(table, signedIn()), key);
      }
    }
    setTotal(d.total);
    showing();
  }

  // ------------------------------------------------------------------ the socket
  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/ws/lobby?page=${state.page}`);
    socket.addEventListener("open", () => { retry = 0; });
    socket.addEventListener("message", (message) => {
      const frame = JSON.parse(message.data);
      if (frame.t === "sync") {
        $("chat-log").textContent = "";
        frame.d.chat.forEach(addChat);
        resync(frame.d);
      } else if (frame.t === "chat") {
        addChat(frame.d.text);
        if (speak.has("chat")) say(frame.d.text);
      } else if (frame.t === "tables") {
        apply(frame.d.changes);
        setTotal(frame.d.total);
        if (frame.d.say.length && speak.has("lobby")) say(frame.d.say.join(" "));
      } else if (frame.t === "error") {
        $("lobby-assertive").textContent = frame.d.text;
      }
    });
    socket.addEventListener("close", () => {
      retry = Math.min(retry + 1, 6);
      window.setTimeout(connect, 250 * 2 ** retry);
    });
  }

  const form = $("chat-form");
  if (form) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const input = $("chat-text");
      if (input.value.trim() && socket && socket.readyState === WebSocket.OPEN) {
        socket.send(JSON.stringify({ t: "chat", d: { text: input.value } }));
        input.value = "";
      }
    });
  }
  readPage();
  connect();
})();
