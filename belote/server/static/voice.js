// Self-voicing: for low-vision players without a screen reader, the page says its own live
// announcements (every aria-live region, role alert and status, also those a script adds
// later) through the browser's speech synthesis, in the page's language.  Off unless the player turns it on (the
// "voice" setting): with a screen reader on, everything would be said twice.
//
// The regions are already paced for screen readers (the table's pace, docs/room.md): a
// sentence is said when its region receives it, as a screen reader would.  Polite sentences
// wait their turn (at most MAX_WAITING: older ones are dropped, they stay in the game log);
// an assertive one (an answer to a key, a refusal, an alert) stops what is being said and
// what waits, and is said at once.  Keys: F2 says the last sentence again, Control stops the
// speech (as it does for screen readers); the bar at the bottom of the screen has the same,
// and a slower and a faster rate, as buttons for touch.
"use strict";

(function () {
  const synth = window.speechSynthesis;
  const bar = document.getElementById("voice-bar");
  if (!synth || !window.SpeechSynthesisUtterance || !bar) return;
  const lang = document.documentElement.lang || "en";
  const MAX_WAITING = 4;
  const RATE = { min: 50, max: 200, step: 25 }; // percent (belote/server/settings.py)
  const waiting = [];
  let speaking = null; // the utterance being said
  let watchdog = null;
  let last = "";

  function settings() {
    try { return JSON.parse(document.body.dataset.settings || "{}"); } catch (error) { return {}; }
  }
  const on = () => settings().voice === true;
  let rate = settings().voice_rate || 100;

  // A voice of the page's language, the system's default for it first; none: the engine's
  // own choice for the utterance's language.
  function voiceFor(code) {
    const voices = synth.getVoices().filter((v) => v.lang.toLowerCase().replace("_", "-").split("-")[0] === code);
    return voices.find((v) => v.default) || voices.find((v) => v.localService) || voices[0] || null;
  }

  function say(text) {
    const utterance = new SpeechSynthesisUtterance(text);
    utterance.lang = lang;
    const voice = voiceFor(lang);
    if (voice) utterance.voice = voice;
    utterance.rate = rate / 100;
    const done = () => {
      if (speaking !== utterance) return; // stopped, or replaced by an urgent sentence
      window.clearTimeout(watchdog);
      speaking = null;
      next();
    };
    utterance.onend = done;
    utterance.onerror = done;
    speaking = utterance;
    // Some engines never say "end" (a long sentence in Chrome): the next one goes after the
    // longest this one could take.
    window.clearTimeout(watchdog);
    watchdog = window.setTimeout(done, 3000 + (text.length * 150 * 100) / rate);
    synth.speak(utterance);
  }

  function next() {
    if (!speaking && waiting.length) say(waiting.shift());
  }

  function polite(text) {
    last = text;
    waiting.push(text);
    while (waiting.length > MAX_WAITING) waiting.shift();
    next();
  }

  function stop() {
    waiting.length = 0;
    speaking = null;
    window.clearTimeout(watchdog);
    synth.cancel();
  }

  function urgent(text) {
    last = text;
    stop();
    say(text);
  }

  // Every live region of the page, those present at load and those added later (a dialog's
  // status, an alert put in after a failure): one observer on the whole document.  A change
  // is said as the nearest live region around it says it (aria-live="off" silences what it
  // holds); the region's text is said once however many changes one script made to it.  A
  // region put in with its text already in it is said only if it is an alert, as screen
  // readers do.
  const LIVE = "[aria-live], [role=alert], [role=status]";

  function regionOf(node) {
    const element = node.nodeType === Node.ELEMENT_NODE ? node : node.parentElement;
    const region = element && element.closest(LIVE);
    return region && region.getAttribute("aria-live") !== "off" ? region : null;
  }

  function assertive(region) {
    const live = region.getAttribute("aria-live");
    return live === "assertive" || (!live && region.getAttribute("role") === "alert");
  }

  new MutationObserver((mutations) => {
    if (!on()) return;
    const changed = new Set();
    for (const mutation of mutations) {
      const region = regionOf(mutation.target);
      if (region) { changed.add(region); continue; }
      for (const added of mutation.addedNodes) {
        if (added.nodeType !== Node.ELEMENT_NODE) continue;
        if (added.matches("[role=alert]")) changed.add(added);
        for (const alert of added.querySelectorAll("[role=alert]")) changed.add(alert);
      }
    }
    for (const region of changed) {
      const text = region.isConnected ? region.textContent.trim() : "";
      if (text) (assertive(region) ? urgent : polite)(text);
    }
  }).observe(document.body, { childList: true, characterData: true, subtree: true });

  // The bar: shown while the setting is on (the table page saves it in place: followed).
  const strings = bar.dataset;
  function showBar() {
    const enabled = on();
    bar.hidden = !enabled;
    document.body.classList.toggle("voicing", enabled);
    if (!enabled) stop();
    else rate = settings().voice_rate || rate;
  }
  new MutationObserver(showBar).observe(document.body, { attributes: true, attributeFilter: ["data-settings"] });
  showBar();

  function repeat() {
    if (last) urgent(last);
    else urgent(strings.nothing);
  }

  function changeRate(step) {
    rate = Math.min(RATE.max, Math.max(RATE.min, rate + step * RATE.step));
    // The preferences form keeps it when the player saves.
    const field = document.getElementById("pref-voice-rate");
    if (field) field.value = String(rate);
    urgent(strings.rate.replace("%RATE%", String(rate)));
  }

  bar.querySelector("[data-voice=repeat]").addEventListener("click", repeat);
  bar.querySelector("[data-voice=stop]").addEventListener("click", stop);
  bar.querySelector("[data-voice=slower]").addEventListener("click", () => changeRate(-1));
  bar.querySelector("[data-voice=faster]").addEventListener("click", () => changeRate(1));

  document.addEventListener("keydown", (event) => {
    if (!on()) return;
    if (event.key === "F2") { event.preventDefault(); repeat(); return; }
    if (event.key === "Control" && !event.repeat) stop();
  });

  // What the page said before the scripts ran (a refused form's message) is said once.
  if (on()) {
    for (const alert of document.querySelectorAll("[role=alert]")) {
      const text = alert.textContent.trim();
      if (text) urgent(text);
    }
  }
})();
