/*
 * A test-only stand-in for https://apis.google.com/js/api.js, served by the e2e tests through
 * Playwright's request routing because these machines have no internet.
 *
 * The Firebase SDK and the Auth emulator's helper iframe use Google's `gapi.iframes` only as a
 * postMessage channel between the app page and that iframe during signInWithPopup. This file
 * implements the part of that channel they call (open, ping, register, send, getParentIframe),
 * so the real SDK and the real emulator pages run the Google popup flow end to end.
 */
(function () {
  var FILTER = 'gapi-shim-cross-origin';
  var TAG = '__gapiShim';

  function post(target, message) {
    message[TAG] = true;
    target.postMessage(message, '*');
  }

  /** One end of the channel: `peer` is the window at the other end. */
  function channel(peer) {
    var handlers = {};
    var pending = {};
    var waiting = {}; // messages that arrived before their handler was registered
    var seq = 0;
    function deliver(source, m) {
      Promise.resolve(handlers[m.name](m.data)).then(function (value) {
        post(source, { kind: 'reply', id: m.id, results: [value] });
      });
    }
    window.addEventListener('message', function (event) {
      var m = event.data;
      if (!m || m[TAG] !== true || event.source !== peer()) return;
      if (m.kind === 'send') {
        if (handlers[m.name]) deliver(event.source, m);
        else (waiting[m.name] = waiting[m.name] || []).push({ source: event.source, message: m });
      } else if (m.kind === 'reply' && pending[m.id]) {
        var callback = pending[m.id];
        delete pending[m.id];
        try {
          callback(m.results);
        } catch (err) {
          // Callbacks may throw after handling the answer (the SDK does); gapi swallows that too.
          setTimeout(function () { console.debug('gapi shim callback threw', err); });
        }
      }
    });
    return {
      register: function (name, handler) {
        handlers[name] = handler;
        (waiting[name] || []).forEach(function (w) { deliver(w.source, w.message); });
        delete waiting[name];
      },
      unregister: function (name) { delete handlers[name]; },
      send: function (name, data, callback) {
        var id = ++seq;
        pending[id] = callback || function () {};
        post(peer(), { kind: 'send', name: name, data: data, id: id });
      },
      restyle: function () { return Promise.resolve(); },
    };
  }

  // Child side: answer pings from the parent as soon as this script runs.
  if (window.parent !== window) {
    window.addEventListener('message', function (event) {
      var m = event.data;
      if (m && m[TAG] === true && m.kind === 'ping' && event.source === window.parent) {
        post(window.parent, { kind: 'pong' });
      }
    });
  }

  var context = {
    open: function (options, onOpen) {
      var frame = document.createElement('iframe');
      var attributes = options.attributes || {};
      Object.keys(attributes).forEach(function (key) {
        if (key === 'style') Object.assign(frame.style, attributes.style);
        else frame.setAttribute(key, attributes[key]);
      });
      frame.src = options.url;
      (options.where || document.body).appendChild(frame);
      var handle = channel(function () { return frame.contentWindow; });
      var ponged = false;
      window.addEventListener('message', function (event) {
        var m = event.data;
        if (m && m[TAG] === true && m.kind === 'pong' && event.source === frame.contentWindow) ponged = true;
      });
      handle.ping = function (callback) {
        return new Promise(function (resolve) {
          var timer = setInterval(function () {
            if (ponged) {
              clearInterval(timer);
              if (callback) callback();
              resolve();
              return;
            }
            if (frame.contentWindow) post(frame.contentWindow, { kind: 'ping' });
          }, 50);
        });
      };
      return Promise.resolve(onOpen ? onOpen(handle) : handle);
    },
    getParentIframe: function () {
      return channel(function () { return window.parent; });
    },
  };

  window.gapi = {
    load: function (_name, options) {
      setTimeout(function () {
        var callback = typeof options === 'function' ? options : options && options.callback;
        if (callback) callback();
      });
    },
    iframes: {
      CROSS_ORIGIN_IFRAMES_FILTER: FILTER,
      getContext: function () { return context; },
    },
  };

  var script = document.currentScript;
  var onload = script && script.src ? new URL(script.src).searchParams.get('onload') : null;
  setTimeout(function () {
    if (onload && typeof window[onload] === 'function') window[onload]();
    if (typeof window.gapi_onload === 'function') window.gapi_onload();
  });
})();
