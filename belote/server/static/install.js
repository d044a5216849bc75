// The room as an app: registers the service worker (/sw.js: the app shell kept for a phone,
// the offline page when there is no network) and tells it the page's language, for that
// page.  Progressive: a browser without service workers, or one that refuses this one, has
// the room as before (the failure goes to the console as a warning).
"use strict";

(function () {
  if (!("serviceWorker" in navigator)) return;
  const tell = (registration) => {
    const worker = registration.active || registration.waiting || registration.installing;
    if (worker) worker.postMessage({ lang: document.documentElement.lang });
  };
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" })
      .then(() => navigator.serviceWorker.ready)
      .then(tell)
      .catch((error) => console.warn("La Sala: the offline shell is not installed:", error));
  });
})();
