// A watcher installed in the workbench page for the tests (routes /watch and /watched of
// run-vscode-tests.mjs): notes, for each value of `pattern`'s first group, when it first appeared
// under `root` in the DOM, at the animation frame that paints it (wall clock ms), and the second
// group (e.g. a send time stamped into the text). No polling: a MutationObserver.
export function installWatch({ root, pattern, key }) {
  const seen = new Map();
  const re = new RegExp(pattern, 'g');
  // `body` watches the document itself: a webview writes its page into a frame's document after
  // the frame loaded (document.open() keeps the document, not its body).
  const target = root === 'body' ? document : (document.querySelector(root) ?? document);
  let queued = [];
  const scan = (text) => {
    for (const m of text.matchAll(re)) if (!seen.has(m[1]) && !queued.some((q) => q[0] === m[1])) queued.push([m[1], m[2] ?? '']);
  };
  const flush = () => {
    const at = performance.timeOrigin + performance.now();
    for (const [k, extra] of queued) seen.set(k, { at, extra });
    queued = [];
  };
  const observer = new MutationObserver((records) => {
    const before = queued.length;
    for (const r of records) {
      if (r.type === 'characterData') scan(r.target.textContent ?? '');
      for (const n of r.addedNodes) scan(n.textContent ?? '');
    }
    if (queued.length > before) requestAnimationFrame(flush);
  });
  observer.observe(target, { subtree: true, childList: true, characterData: true });
  window.__watches ??= {};
  window.__watches[key]?.observer.disconnect();
  window.__watches[key] = { seen, observer };
}

/** What the watcher `key` saw: [value, wall clock ms, extra] in the order first seen. */
export function readWatch(key) {
  const w = window.__watches?.[key];
  if (!w) return [];
  return [...w.seen.entries()].map(([k, v]) => [k, v.at, v.extra]);
}
