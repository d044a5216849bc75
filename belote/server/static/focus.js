// Focus across page loads: a form sent (sign-in, preferences, a new table) or a reload must
// not leave the keyboard at the top of the page.  What had focus is kept in sessionStorage;
// the next page focuses the form's data-focus-after target if it is there, else the same
// element, else (on the table page) lets table.js choose once its view is drawn.
"use strict";

(function () {
  const KEY = "sala.focus";
  function describe(element) {
    if (!element || element === document.body) return null;
    return { id: element.id || null, key: (element.dataset && element.dataset.key) || null };
  }
  function keep(entry) {
    try { sessionStorage.setItem(KEY, JSON.stringify(entry)); } catch (e) { /* private mode */ }
  }

  document.addEventListener("submit", (event) => {
    if (event.defaultPrevented) return; // handled by a page script (chat, bid box)
    const form = event.target;
    const entry = describe(event.submitter || document.activeElement) || {};
    keep(Object.assign(entry, { path: location.pathname, form: true,
                                after: form.dataset.focusAfter || null }));
  });
  window.addEventListener("pagehide", () => {
    let pending = null;
    try { pending = sessionStorage.getItem(KEY); } catch (e) { return; }
    if (pending) return; // a form's entry is already kept
    const entry = describe(document.activeElement);
    if (entry) keep(Object.assign(entry, { path: location.pathname, form: false }));
  });

  let saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(KEY) || "null");
    sessionStorage.removeItem(KEY);
  } catch (e) { saved = null; }

  function shown(element) {
    return element && element.isConnected && !element.closest("[hidden]") &&
      element.getClientRects().length > 0;
  }

  // A control kept from the last page may sit in a folded <details> (the preferences fold
  // on a narrow screen): it was in view when used, so what holds it opens again.
  function unfold(element) {
    let box = element && element.isConnected ? element.closest("details:not([open])") : null;
    while (box) {
      box.open = true;
      box = box.parentElement ? box.parentElement.closest("details:not([open])") : null;
    }
    return element;
  }

  // The element to focus now, or null (the page script may ask again once it has drawn).
  window.salaFocusTarget = function () {
    if (!saved) return null;
    const candidates = [];
    if (saved.form && saved.after) candidates.push(document.getElementById(saved.after));
    if (saved.form || saved.path === location.pathname) {
      if (saved.id) candidates.push(document.getElementById(saved.id));
      if (saved.key) candidates.push(document.querySelector(`[data-key="${CSS.escape(saved.key)}"]`));
    }
    return candidates.find((element) => shown(unfold(element))) || null;
  };

  document.addEventListener("DOMContentLoaded", () => {
    const target = window.salaFocusTarget();
    if (target) target.focus();
  });
})();
