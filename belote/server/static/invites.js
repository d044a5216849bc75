// Invitations, on every page of a signed-in account: a personal socket (/ws/me) hears them
// from any of the room's processes.  Each one is said once in a polite live region, with a
// short chime made with Web Audio (when the "sounds" setting is on, at its volume), listed
// at the top of the page with Accept (a link to the table) and Decline; and, if the person
// allowed it with the friends page's button (never asked on load), shown as a browser
// notification while the page is hidden.
"use strict";

(function () {
  const panel = document.getElementById("invitations");
  const said = document.getElementById("invitations-said");
  const list = document.getElementById("invitation-list");
  if (!panel || !said || !list) return;
  const strings = JSON.parse(panel.dataset.strings || "{}");
  let settings = {};
  try { settings = JSON.parse(document.body.dataset.settings || "{}"); } catch (e) { settings = {}; }

  function chime() {
    if (!settings.sounds) return;
    try {
      window.salaChime([587, 880], settings.volume, 0.15, 0.18); // not the table's cues
    } catch (e) { /* no sound: the sentence is said all the same */ }
  }

  function say(text) {
    // Once: the region is emptied first, so the same words twice are still said twice.
    said.textContent = "";
    window.setTimeout(() => { said.textContent = text; }, 50);
  }

  function notify(text) {
    if (!document.hidden || !("Notification" in window)) return;
    if (Notification.permission !== "granted") return;
    try { new Notification(strings.title || "", { body: text }); } catch (e) { /* none */ }
  }

  function show(invite) {
    const item = document.createElement("li");
    const words = document.createElement("span");
    words.textContent = invite.text + " ";
    const accept = document.createElement("a");
    accept.href = invite.link;
    accept.textContent = strings.accept || "Accept";
    accept.className = "invitation-accept";
    const decline = document.createElement("button");
    decline.type = "button";
    decline.textContent = strings.decline || "Decline";
    decline.className = "invitation-decline";
    decline.addEventListener("click", () => {
      const next = item.nextElementSibling || item.previousElementSibling;
      item.remove();
      if (!list.children.length) panel.hidden = true;
      say(strings.declined || "");
      const target = next && next.querySelector("a");
      (target || document.getElementById("main")).focus();
    });
    item.append(words, accept, document.createTextNode(" "), decline);
    list.append(item);
    panel.hidden = false;
  }

  function heard(frame) {
    if (frame.t !== "invite" || !frame.d) return;
    show(frame.d);
    say(frame.d.text);
    chime();
    notify(frame.d.text);
  }

  let delay = 1000;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let socket;
    try { socket = new WebSocket(scheme + "//" + location.host + "/ws/me"); } catch (e) { return; }
    socket.addEventListener("open", () => { delay = 1000; });
    socket.addEventListener("message", (event) => {
      try { heard(JSON.parse(event.data)); } catch (e) { /* not an invitation */ }
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 1008) return; // refused (signed out, too many sockets): stay quiet
      window.setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }
  connect();

  // The permission for notifications is asked by a button only (the friends page's).
  const ask = document.getElementById("notify-permission");
  const status = document.getElementById("notify-said");
  if (ask && "Notification" in window && Notification.permission === "default") {
    ask.hidden = false;
    ask.addEventListener("click", () => {
      Notification.requestPermission().then((answer) => {
        if (status) status.textContent = answer === "granted" ? strings.granted : strings.denied;
        ask.hidden = true;
      });
    });
  }
})();
