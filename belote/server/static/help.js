// Help and report, on every page: F4 (QC Playroom's key; no page of the room uses it) or the
// footer's link opens a dialog with the keys' link and the report form, loaded from the
// server (/help?panel=1) with the people of the page's table to choose from.  Focus moves
// to its heading, Escape closes it (the dialog's own), and focus returns where it was.  A
// report is sent without leaving the page (a player keeps their seat); without scripts the
// link opens the /help page, whose form works alone.  It also says, once, a moderator's
// warning not yet told (the next page load after it was given).
"use strict";

(function () {
  const dialog = document.getElementById("help-report");
  const body = document.getElementById("help-report-body");
  const link = document.getElementById("help-link");
  if (!dialog || !body || !link || typeof dialog.showModal !== "function") return;
  let opener = null;
  let loading = false;

  async function open() {
    // On the help page itself, its own panel is the place: no second copy in a dialog.
    const own = document.querySelector("h1#help-report-title");
    if (own) { own.focus(); return; }
    if (dialog.open || loading) return;
    loading = true;
    opener = document.activeElement;
    const url = "/help?panel=1&from=" + encodeURIComponent(location.pathname);
    try {
      const answer = await fetch(url, { credentials: "same-origin" });
      if (!answer.ok) throw new Error("HTTP " + answer.status);
      body.innerHTML = await answer.text();
    } catch (error) {
      body.textContent = "";
      const said = document.createElement("p");
      said.id = "help-report-title";
      said.tabIndex = -1;
      said.setAttribute("role", "alert");
      said.textContent = dialog.dataset.failed;
      body.appendChild(said);
    } finally {
      loading = false;
    }
    dialog.showModal();
    const heading = document.getElementById("help-report-title");
    if (heading) heading.focus();
  }

  dialog.addEventListener("close", () => {
    body.textContent = ""; // the next opening asks again: the table's people may change
    if (opener && document.contains(opener) && typeof opener.focus === "function") opener.focus();
    opener = null;
  });

  document.addEventListener("keydown", (event) => {
    if (event.key !== "F4" || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    event.stopPropagation();
    open();
  }, true);
  link.addEventListener("click", (event) => { event.preventDefault(); open(); });

  body.addEventListener("submit", async (event) => {
    const form = event.target;
    if (form.id !== "report-form") return;
    event.preventDefault();
    const status = document.getElementById("report-status");
    const button = form.querySelector("button[type=submit]");
    button.disabled = true;
    try {
      const answer = await fetch(form.action, {
        method: "POST", credentials: "same-origin", headers: { Accept: "application/json" },
        body: new URLSearchParams(new FormData(form)),
      });
      const data = await answer.json();
      status.textContent = data.message;
      if (data.ok) form.hidden = true; // sent: the form goes, the status says so
    } catch (error) {
      status.textContent = dialog.dataset.failed;
    } finally {
      button.disabled = false;
    }
    if (form.hidden) document.getElementById("help-report-title").focus();
  });

  // A moderator's warnings not told yet: said once here, politely (the words in the live
  // region), with "I understand" after them (the form, outside the region: its button is
  // not read out with the words).
  async function notices() {
    const region = document.getElementById("moderation-notices");
    const form = document.getElementById("moderation-notices-seen");
    if (!region || !form || !document.querySelector("form[action='/logout']")) return;
    let found = [];
    try {
      const answer = await fetch("/notices", { credentials: "same-origin" });
      if (answer.ok) found = (await answer.json()).notices || [];
    } catch (error) { return; }
    if (!found.length) return;
    found.forEach((notice) => {
      const line = document.createElement("p");
      line.textContent = notice.text;
      region.appendChild(line);
      const id = document.createElement("input");
      id.type = "hidden"; id.name = "id"; id.value = String(notice.id);
      form.appendChild(id);
    });
    form.hidden = false;
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        await fetch(form.action, { method: "POST", credentials: "same-origin",
                                   body: new URLSearchParams(new FormData(form)) });
      } catch (error) { /* told again at the next page */ }
      region.textContent = "";
      form.hidden = true;
      for (const id of form.querySelectorAll("input[name=id]")) id.remove();
      const main = document.getElementById("main");
      if (main) main.focus();
    });
  }
  notices();
})();
