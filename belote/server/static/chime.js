// A short chime made with Web Audio, for every script of a page that makes one (the table's
// cues, the invitations): one audio context per page, since browsers allow only a few.
// Whether to sound at all (the "sounds" setting) and what to do when the browser cannot are
// the caller's: salaChime throws then.
"use strict";

window.salaChime = (function () {
  let audio = null;
  // `frequencies` in Hz, one note after the other, each `length` seconds long and `step`
  // seconds after the one before; `volume` is the setting, 0 to 100.
  return function salaChime(frequencies, volume, length, step) {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    let at = audio.currentTime;
    for (const frequency of frequencies) {
      const oscillator = audio.createOscillator();
      const gain = audio.createGain();
      oscillator.frequency.value = frequency;
      gain.gain.value = 0.3 * (volume || 0) / 100;
      oscillator.connect(gain).connect(audio.destination);
      oscillator.start(at);
      oscillator.stop(at + length);
      at += step;
    }
  };
})();
