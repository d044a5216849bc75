// Tournament pages: the standings and the console's round refresh themselves; the round
// clock counts down (and the console says, politely, 10, 5 and 1 minutes left and time); a
// console form's notice is said where the form comes back to; the projector turns its pages
// by itself; the score entry checks its field as it is typed; the seat-code page takes the
// code from its address's fragment (#c=..., the table card's QR code: a fragment never
// reaches the server's logs nor a Referer).  Every page works without this script (the code
// is then typed, the figures reloaded by hand).
"use strict";
(function () {
  const code = document.getElementById("code");
  const given = /(?:^#|&)c=([^&]*)/.exec(location.hash);
  if (code && given) {
    if (!code.value) { code.value = decodeURIComponent(given[1]); }
    history.replaceState(null, "", location.pathname + location.search);  // out of history
  }

  // ---------------------------------------------------------------- the round clock
  // Each [data-clock] counts down from data-left (seconds at the page's moment) while
  // data-running is 1.  The console's #clock-say (aria-live polite) says the minutes left at
  // SAY_AT and the time, once each as the clock passes them: never every second.
  const SAY_AT = [600, 300, 60, 0];
  const say = document.getElementById("clock-say");
  let clocks = [];
  const lastLeft = {};  // per round: the seconds left at the last tick
  function clockText(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    const mm = String(m).padStart(2, "0"), ss = String(r).padStart(2, "0");
    return h ? h + ":" + mm + ":" + ss : mm + ":" + ss;
  }
  function readClocks() {
    clocks = Array.from(document.querySelectorAll("[data-clock]")).map(function (el) {
      const c = { el: el, round: el.dataset.clock, left: Number(el.dataset.left),
                  running: el.dataset.running === "1", since: performance.now() };
      if (lastLeft[c.round] === undefined) { lastLeft[c.round] = c.left; }  // said from now on
      return c;
    });
  }
  function announce(round, before, now) {
    if (!say || before === undefined) { return; }
    for (const at of SAY_AT) {
      if (before > at && now <= at) {
        const text = at === 0 ? say.dataset.sayTime
          : at === 60 ? say.dataset.sayMinute
            : say.dataset.sayMinutes.replace("{minutes}", String(at / 60));
        say.textContent = text;
        return;
      }
    }
  }
  function tick() {
    for (const c of clocks) {
      const left = c.running ? c.left - (performance.now() - c.since) / 1000 : c.left;
      const text = clockText(left);
      if (c.el.textContent !== text) { c.el.textContent = text; }
      announce(c.round, lastLeft[c.round], left);
      lastLeft[c.round] = left;
    }
  }
  readClocks();
  setInterval(tick, 1000);

  // ---------------------------------------------------------------- live parts
  // [data-live]: its content is fetched again every 5 s, and only what changed is replaced:
  // each piece of it (the list of the tables still to report, the clock's line) is compared
  // with the clocks' seconds left out.  The seconds change at every fetch while the clock
  // runs: were they compared, the whole part would be rendered again every 5 s, moving a
  // screen reader's reading position; the clock takes its new seconds in place instead.
  // data-status names a status line given the new content's data-count, only when that
  // sentence changed (a polite pace: nothing is said while nothing changes).
  function piecesOf(text) {
    const holder = document.createElement("template");
    holder.innerHTML = text.trim();
    return holder.content.firstElementChild;
  }
  function timeless(piece) {
    const copy = piece.cloneNode(true);
    const clocks = Array.from(copy.querySelectorAll("[data-clock]"));
    if (copy.matches("[data-clock]")) { clocks.push(copy); }
    for (const clock of clocks) { clock.removeAttribute("data-left"); clock.textContent = ""; }
    return copy.outerHTML;
  }
  function newSeconds(shown, fresh) {
    const now = Array.from(fresh.querySelectorAll("[data-clock]"));
    shown.querySelectorAll("[data-clock]").forEach(function (clock, n) {
      if (now[n]) { clock.dataset.left = now[n].dataset.left; }
    });
  }
  function update(live, fresh) {
    const shown = live.firstElementChild;
    if (!shown || shown.tagName !== fresh.tagName
        || shown.children.length !== fresh.children.length) {
      live.replaceChildren(fresh);
      return;
    }
    for (const name of fresh.getAttributeNames()) {  // data-count
      shown.setAttribute(name, fresh.getAttribute(name));
    }
    const pieces = Array.from(shown.children);
    Array.from(fresh.children).forEach(function (piece, n) {
      if (timeless(pieces[n]) === timeless(piece)) {
        newSeconds(pieces[n], piece);
      } else {
        pieces[n].replaceWith(piece.cloneNode(true));
      }
    });
  }
  for (const live of document.querySelectorAll("[data-live]")) {
    let last = null;
    setInterval(async function () {
      try {
        const answer = await fetch(live.dataset.live, { credentials: "same-origin" });
        if (!answer.ok) { return; }
        const text = await answer.text();
        const fresh = text === last ? null : piecesOf(text);
        last = text;
        if (!fresh) { return; }
        update(live, fresh);
        const status = live.dataset.status && document.getElementById(live.dataset.status);
        const counted = live.querySelector("[data-count]");
        if (status && counted && status.textContent !== counted.dataset.count) {
          status.textContent = counted.dataset.count;
        }
        readClocks();
        tick();
      } catch (error) { /* offline for a moment: the next refresh tries again */ }
    }, 5000);
  }

  // ---------------------------------------------------------------- the console's notice
  // A console form that comes back to its own part (?at=queue#queue-heading) has its notice
  // just after that part's heading, which the notice describes: the heading is focused, so
  // that a screen reader says where the organiser is and what the form did, and the next
  // Tab goes on from there.  The address loses its ?at= (a reload shows no notice).
  const notice = document.getElementById("console-notice");
  const landing = location.hash && document.getElementById(location.hash.slice(1));
  if (notice && landing && landing.getAttribute("aria-describedby") === notice.id) {
    landing.focus();
    history.replaceState(null, "", location.pathname + location.hash);
  }

  // ---------------------------------------------------------------- the projector
  // The rows of each view (the standings, the round's tables) are cut into pages of what
  // the screen holds below the banner; one page shows at a time, the next after
  // data-page-seconds; the figures are fetched again every data-refresh-seconds.
  const projector = document.getElementById("projector");
  if (projector) {
    const pause = document.getElementById("projector-pause");
    const pageOut = document.getElementById("projector-page");
    let pages = [];
    let index = 0;
    let paused = false;
    pause.hidden = false;
    pause.addEventListener("click", function () {
      paused = !paused;
      pause.setAttribute("aria-pressed", paused ? "true" : "false");
    });
    function paginate() {
      const views = Array.from(projector.querySelectorAll("[data-view]"));
      pages = [];
      for (const view of views) {
        view.hidden = false;
        const rows = Array.from(view.querySelectorAll("tr[data-row]"));
        rows.forEach(function (row) { row.hidden = false; });
      }
      const banner = projector.querySelector(".banner");
      const footer = document.querySelector(".projector-controls");
      for (const view of views) {
        const rows = Array.from(view.querySelectorAll("tr[data-row]"));
        const head = view.querySelector("h2").offsetHeight + view.querySelector("thead").offsetHeight;
        const room = window.innerHeight - (banner ? banner.offsetHeight : 0) - head
          - (footer ? footer.offsetHeight : 0) - 24;
        let start = 0, used = 0;
        rows.forEach(function (row, n) {
          const h = row.offsetHeight;
          if (n > start && used + h > room) { pages.push([view, start, n]); start = n; used = 0; }
          used += h;
        });
        pages.push([view, start, rows.length]);
      }
      index = Math.min(index, pages.length - 1);
      show();
    }
    function show() {
      const [view, start, end] = pages[index];
      for (const other of projector.querySelectorAll("[data-view]")) { other.hidden = other !== view; }
      view.querySelectorAll("tr[data-row]").forEach(function (row, n) {
        row.hidden = n < start || n >= end;
      });
      const ofView = pages.filter(function (p) { return p[0] === view; });
      pageOut.textContent = ofView.length > 1 ? projector.dataset.pageText
        .replace("{page}", String(ofView.indexOf(pages[index]) + 1))
        .replace("{pages}", String(ofView.length)) : "";
    }
    paginate();
    window.addEventListener("resize", paginate);
    setInterval(function () {
      if (paused || pages.length < 2) { return; }
      index = (index + 1) % pages.length;
      show();
    }, 1000 * Number(projector.dataset.pageSeconds));
    setInterval(async function () {
      try {
        const answer = await fetch(projector.dataset.projector, { credentials: "same-origin" });
        if (!answer.ok) { return; }
        projector.innerHTML = await answer.text();
        readClocks();
        paginate();
      } catch (error) { /* offline for a moment: the next refresh tries again */ }
    }, 1000 * Number(projector.dataset.refreshSeconds));
  }

  // ---------------------------------------------------------------- score entry
  const form = document.getElementById("entry-form");
  if (form) {
    const input = document.getElementById("answer");
    const out = document.getElementById("answer-check");
    let timer = null;
    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(async function () {
        if (!input.value.trim()) { out.textContent = ""; return; }
        const url = form.dataset.check + "?value=" + encodeURIComponent(input.value);
        try {
          const answer = await fetch(url, { credentials: "same-origin" });
          const data = await answer.json();
          out.textContent = data.text;
          input.setAttribute("aria-invalid", data.ok ? "false" : "true");
        } catch (error) { out.textContent = ""; }
      }, 300);
    });
  }
})();
