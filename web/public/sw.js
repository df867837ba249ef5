/* Santa Wishlist service worker, written by hand.
 *
 * - The app shell opens offline: navigations are network-first and fall back to the cached
 *   index.html.
 * - Hashed build assets (/assets/*) never change, so they are cache-first. At install, and
 *   again after each online navigation, /precache-manifest.json (written by the build) names
 *   every file of the current build: missing ones are fetched, old builds' files are dropped.
 * - Other static files (icons, sounds, backgrounds, manifest) are served from cache and
 *   refreshed in the background.
 * - /api/* and /media/* are never cached: wishlist data, sign-in and people's photos always come
 *   from the server.
 * - Web Push: a push from the notification service ({title, body, url, tag}) is shown as a
 *   notification; tapping it opens its screen in the app's window, or in a new one.
 */
const SHELL_CACHE = 'santa-shell-v1';
const ASSET_CACHE = 'santa-assets-v1';
const STATIC_CACHE = 'santa-static-v1';
const KNOWN_CACHES = [SHELL_CACHE, ASSET_CACHE, STATIC_CACHE];
const INDEX = '/index.html';
const PRECACHE_MANIFEST = '/precache-manifest.json';

async function syncAssets() {
  const res = await fetch(PRECACHE_MANIFEST, { cache: 'no-store' });
  if (!res.ok) return;
  const files = await res.json();
  if (!Array.isArray(files)) return;
  const wanted = new Set(files.filter((f) => typeof f === 'string' && f.startsWith('/assets/')));
  const cache = await caches.open(ASSET_CACHE);
  const cached = await cache.keys();
  await Promise.all(
    cached
      .filter((req) => !wanted.has(new URL(req.url).pathname))
      .map((req) => cache.delete(req)),
  );
  const have = new Set(cached.map((req) => new URL(req.url).pathname));
  await Promise.all(
    [...wanted]
      .filter((path) => !have.has(path))
      .map((path) => cache.add(path).catch(() => undefined)),
  );
}

async function cacheShell() {
  const cache = await caches.open(SHELL_CACHE);
  const res = await fetch('/', { cache: 'no-store' });
  if (res.ok) await cache.put(INDEX, res);
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      await cacheShell();
      await syncAssets().catch(() => undefined);
      const stat = await caches.open(STATIC_CACHE);
      await stat
        .addAll(['/manifest.webmanifest', '/icons/icon.svg', '/icons/icon-192.png'])
        .catch(() => undefined);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((n) => n.startsWith('santa-') && !KNOWN_CACHES.includes(n)).map((n) => caches.delete(n)));
      await self.clients.claim();
    })(),
  );
});

async function networkFirstPage(event) {
  const cache = await caches.open(SHELL_CACHE);
  try {
    const res = await fetch(event.request);
    if (res.ok && (res.headers.get('Content-Type') || '').includes('text/html')) {
      await cache.put(INDEX, res.clone());
      event.waitUntil(syncAssets().catch(() => undefined));
    }
    return res;
  } catch (err) {
    const cached = await cache.match(INDEX);
    if (cached) return cached;
    throw err;
  }
}

async function cacheFirst(request) {
  const cache = await caches.open(ASSET_CACHE);
  const cached = await cache.match(request);
  if (cached) return cached;
  const res = await fetch(request);
  if (res.ok) await cache.put(request, res.clone());
  return res;
}

async function staleWhileRevalidate(event) {
  const cache = await caches.open(STATIC_CACHE);
  const cached = await cache.match(event.request);
  const refresh = fetch(event.request)
    .then(async (res) => {
      if (res.ok) await cache.put(event.request, res.clone());
      return res;
    })
    .catch(() => undefined);
  if (cached) {
    event.waitUntil(refresh);
    return cached;
  }
  const res = await refresh;
  return res || Response.error();
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/api/') || url.pathname === '/api') return;
  // People's photos: always from the server, so a deleted item's picture is really gone.
  if (url.pathname.startsWith('/media/')) return;
  if (url.pathname === '/sw.js' || url.pathname === PRECACHE_MANIFEST) return;
  // Range requests (audio seeking) need the network's partial responses.
  if (request.headers.has('range')) return;

  if (request.mode === 'navigate') {
    event.respondWith(networkFirstPage(event));
  } else if (url.pathname.startsWith('/assets/')) {
    event.respondWith(cacheFirst(request));
  } else if (/\.(png|svg|wav|webmanifest|ico|json)$/.test(url.pathname)) {
    event.respondWith(staleWhileRevalidate(event));
  }
});

/** Only the app's own screens are opened from a notification. */
function sameOriginPath(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/';
}

self.addEventListener('push', (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = {};
  }
  const title = typeof message.title === 'string' && message.title ? message.title : 'Santa Wishlist';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof message.body === 'string' ? message.body : '',
      // The same tag replaces a notification instead of adding one (a push sent twice, a list
      // that changed again).
      tag: typeof message.tag === 'string' ? message.tag : undefined,
      icon: '/icons/icon-192.png',
      data: { url: sameOriginPath(message.url) },
    }),
  );
});

/** Opens a notification's screen: in a window of the app if one is open, else in a new one. */
async function openNotificationTarget(notification) {
  const target = new URL(sameOriginPath(notification.data && notification.data.url), self.location.origin).href;
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((w) => new URL(w.url).origin === self.location.origin);
  if (open) {
    const shown = await open.navigate(target).catch(() => null);
    await open.focus().catch(() => undefined);
    if (shown) return shown;
  }
  return self.clients.openWindow(target);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(openNotificationTarget(event.notification));
});
