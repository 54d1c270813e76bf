// Virtual animation frames for the benchmark page. Headless Chromium paces requestAnimationFrame at
// ~60 Hz, so streaming 200 KB at real pace takes minutes; this replaces rAF with back-to-back
// frames, each one macrotask: run the queued callbacks, let Vue flush, then force style and layout
// as a real frame would. Paint is not included (it is not script work). Plain JS: it is page code,
// and the node type-check project (which covers test/**/*.ts) has no DOM types.

/** Installs the virtual frame clock on `window` (for the benchmark page only). */
export function installVirtualFrames() {
  /** @type {Map<number, FrameRequestCallback>} */
  let queue = new Map();
  let nextId = 1;
  let pending = false;
  const channel = new MessageChannel();

  /** Work per frame (callbacks, Vue's flush, style and layout), ms; read and reset by the page. */
  const frameTimes = [];
  window.__frameTimes = frameTimes;

  channel.port1.onmessage = () => {
    pending = false;
    const callbacks = queue;
    queue = new Map();
    const now = performance.now();
    for (const callback of callbacks.values()) callback(now);
    // Queued after the callbacks' own microtasks (Vue's flush), so the layout sees the new DOM.
    queueMicrotask(() => {
      void document.body.offsetHeight;
      frameTimes.push(performance.now() - now);
    });
  };

  window.requestAnimationFrame = (callback) => {
    const id = nextId++;
    queue.set(id, callback);
    if (!pending) {
      pending = true;
      channel.port2.postMessage(0);
    }
    return id;
  };
  window.cancelAnimationFrame = (id) => {
    queue.delete(id);
  };
}
