// Table Referee's service worker: a dead signal loses nothing that a phone has seen.
//
// Served as /sw.js (referee/web/offline.py), which puts two constants before this file:
// STATIC, the current addresses of the static files every page uses (each with its content's
// hash), and VERSION, a hash of them and of this script. Its scope is the whole app.
//
// - Pages (navigations): network first, always. Whatever the server answers is shown as it is;
//   a page that answered 200 is kept as this phone's last version of it. Only when the network
//   cannot be reached at all is the kept version shown, marked with the time it was made
//   (<body data-offline="…">: app.js shows the "offline — as of 20:31" line), so a kept page is
//   never shown as current.
// - Static files: their names carry their content's hash (app.1a2b3c4d5e6f.js), so the kept
//   copy is the file: cache first, in a cache named after VERSION; the caches of older versions go.
// - Anything else (entries, polls, downloads) goes to the network untouched.
"use strict";

const STATIC_CACHE = `static-${VERSION}`;
const PAGE_CACHE = "pages"; // app.js keeps the screens an entry brings back here too
const KEPT_AT = "X-Kept-At"; // when the kept page was made (an ISO time)
const MOST_PAGES = 60;
const HASHED = /\.[0-9a-f]{12}\.[^./]+$/; // a static file's name with its content's hash

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(STATIC_CACHE).then((cache) => cache.addAll(STATIC)).then(() => self.skipWaiting())
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith("static-") && name !== STATIC_CACHE) await caches.delete(name);
    }
    await takeCharge();
  })());
});

// A page that opened while this worker was being installed asks for it (app.js).
self.addEventListener("message", (event) => {
  if (event.data === "take charge") event.waitUntil(takeCharge());
});

// Control every open page of the app, and keep those this worker did not see open (from the
// browser's HTTP cache where it has them).
async function takeCharge() {
  const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  await self.clients.claim();
  for (const client of open) {
    const request = new Request(client.url, { cache: "force-cache", credentials: "same-origin" });
    try {
      await keepPage(request, await fetch(request));
    } catch {
      // Offline already: nothing to keep.
    }
  }
}

// A copy of a page's answer to keep, stamped with the time the server made it.
async function stamped(response) {
  const headers = new Headers(response.headers);
  const made = new Date(response.headers.get("Date") || Date.now());
  headers.set(KEPT_AT, (Number.isNaN(made.getTime()) ? new Date() : made).toISOString());
  return new Response(await response.blob(), { status: 200, headers });
}

async function keepPage(request, response) {
  const type = response.headers.get("Content-Type") || "";
  const control = response.headers.get("Cache-Control") || "";
  if (response.status !== 200 || !type.startsWith("text/html") || control.includes("no-store")) {
    return;
  }
  const cache = await caches.open(PAGE_CACHE);
  await cache.put(request.url, await stamped(response));
  const kept = await cache.keys();
  for (const old of kept.slice(0, Math.max(0, kept.length - MOST_PAGES))) await cache.delete(old);
}

// The kept version of a page, marked as offline with the time it was made, with the headers it
// came with (its Content-Security-Policy among them); else the browser's own offline page.
async function keptPage(request) {
  const cache = await caches.open(PAGE_CACHE);
  const kept = (await cache.match(request.url)) || (await cache.match(request.url, { ignoreSearch: true }));
  if (!kept) return Response.error();
  const at = kept.headers.get(KEPT_AT) || "";
  const html = (await kept.text()).replace("<body", `<body data-offline="${at}"`);
  const headers = new Headers(kept.headers);
  headers.delete("Content-Length");
  return new Response(html, { status: 200, headers });
}

async function page(event) {
  let response;
  try {
    response = await fetch(event.request);
  } catch {
    return keptPage(event.request);
  }
  event.waitUntil(keepPage(event.request, response.clone()));
  return response;
}

async function staticFile(request) {
  const cache = await caches.open(STATIC_CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") event.respondWith(page(event));
  else if (url.pathname.startsWith("/static/") && HASHED.test(url.pathname)) {
    event.respondWith(staticFile(request));
  }
});
