// The lobby: its list of tables follows the room live, and the lobby chat.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let socket = null;
  let retry = 0;

  function say(text) {
    const region = $("lobby-polite");
    region.textContent = "";
    window.setTimeout(() => { region.textContent = text; }, 30);
  }

  function addChat(text) {
    const li = document.createElement("li");
    li.textContent = text;
    const list = $("chat-log");
    const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 8;
    list.appendChild(li);
    if (atEnd) list.scrollTop = list.scrollHeight;
  }

  async function refreshTables() {
    // The list is rendered by the server (the same template as the page), for this viewer.
    const response = await fetch("/fragment/tables", { credentials: "same-origin" });
    if (!response.ok) return;
    const focused = document.activeElement && document.activeElement.closest("#tables");
    if (focused) return; // never pull the list from under the keyboard; next change updates it
    $("tables").innerHTML = await response.text();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    socket = new WebSocket(`${scheme}//${location.host}/ws/lobby`);
    socket.addEventListener("open", () => { retry = 0; });
    socket.addEventListener("message", (message) => {
      const frame = JSON.parse(message.data);
      if (frame.t === "sync") {
        $("chat-log").textContent = "";
        frame.d.chat.forEach(addChat);
      } else if (frame.t === "chat") {
        addChat(frame.d.text);
        say(frame.d.text);
      } else if (frame.t === "tables") {
        refreshTables();
      } else if (frame.t === "error") {
        const region = $("lobby-assertive");
        region.textContent = frame.d.text;
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
  connect();
})();
