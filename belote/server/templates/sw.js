// La Sala's service worker (served as /sw.js by belote/server/routes/phone.py; the version
// and the lists below are filled in there: belote/server/app_shell.py).
//
// - The app shell (style sheets, scripts, icons, the offline page in each language) is kept
//   in a cache named after the digest of its content: a deploy that changes any of it is a
//   new worker, which fills a new cache and drops the old ones.  The shell is served from
//   the cache first (its version is the content's), else from the network.
// - Pages come from the network, always (network first), and are never kept: each carries
//   the reader's name, tables and chats.  A page the network cannot give is answered with
//   the offline page, in the language of the last page the reader saw.
// - Everything else (forms, JSON, exports, the table's WebSocket) is left to the browser:
//   this worker neither sees nor keeps it.
"use strict";

const VERSION = {{ version | tojson }};
const PREFIX = "sala-shell-";
const CACHE = PREFIX + VERSION;
const SHELL = {{ shell | tojson }};
const OFFLINE = {{ offline | tojson }}; // language -> the offline page's path
const LANG_KEY = "/__sala/lang"; // the last page's language, kept in this cache

self.addEventListener("install", (event) => {
  // Fetched without cookies: nothing of the reader's goes into the cache.
  const requests = SHELL.map((path) => new Request(path, { credentials: "omit", cache: "reload" }));
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(requests)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
    await self.clients.claim();
  })());
});

// A page says its language (install.js), for the offline page.
self.addEventListener("message", (event) => {
  const lang = event.data && event.data.lang;
  if (typeof lang !== "string" || !(lang in OFFLINE)) return;
  event.waitUntil(caches.open(CACHE).then((cache) => cache.put(LANG_KEY, new Response(lang))));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (!url.search && SHELL.includes(url.pathname)) {
    event.respondWith(fromShell(request));
  }
});

async function page(event) {
  try {
    const preloaded = await event.preloadResponse;
    return preloaded || (await fetch(event.request));
  } catch (error) {
    // No network (or no room): the offline page says the room needs a connection.
    const cache = await caches.open(CACHE);
    const offline = await cache.match(OFFLINE[await language(cache)]);
    return offline || Response.error();
  }
}

async function fromShell(request) {
  const cache = await caches.open(CACHE);
  return (await cache.match(request)) || fetch(request);
}

async function language(cache) {
  const kept = await cache.match(LANG_KEY);
  const lang = kept ? await kept.text() : "";
  if (lang in OFFLINE) return lang;
  const browser = (self.navigator.language || "").slice(0, 2).toLowerCase();
  return browser in OFFLINE ? browser : "en";
}
