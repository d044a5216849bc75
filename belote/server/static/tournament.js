// Tournament pages: the standings refresh themselves; the score entry checks its field as
// it is typed; the seat-code page takes the code from its address's fragment (#c=..., the
// table card's QR code: a fragment never reaches the server's logs nor a Referer).  Every
// page works without this script (the code is then typed).
"use strict";
(function () {
  const code = document.getElementById("code");
  const given = /(?:^#|&)c=([^&]*)/.exec(location.hash);
  if (code && given) {
    if (!code.value) { code.value = decodeURIComponent(given[1]); }
    history.replaceState(null, "", location.pathname + location.search);  // out of history
  }
  const live = document.querySelector("[data-live]");
  if (live) {
    setInterval(async function () {
      try {
        const answer = await fetch(live.dataset.live, { credentials: "same-origin" });
        if (answer.ok) { live.innerHTML = await answer.text(); }
      } catch (error) { /* offline for a moment: the next refresh tries again */ }
    }, 5000);
  }
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
