// Diagnosis of one bench workload in the real VS Code (not part of `npm run bench:vscode`):
//   ACP_BENCH_DIAG=trace[:workload]    a Chrome trace of the page → /tmp/renderer-trace.json
//   ACP_BENCH_DIAG=profile[:workload]  a CPU profile of the page's main thread → /tmp/renderer.cpuprofile
//   ACP_BENCH_DIAG=net[:workload]      when the stamps reach the page's websocket (CDP Network)
//   ACP_BENCH_DIAG=mut[:workload]      which elements of the workbench change, how often
//   ACP_BENCH_DIAG=anim[:workload]     the animations running in the page and its frames
//   ACP_BENCH_DIAG=host[:workload]     a CPU profile of the extension host (its inspector, opened
//                                      with SIGUSR1) → /tmp/exthost.cpuprofile
// The workload is the mixed stream, `/workload 50` with `:workload`, `/workload 0` (a burst) with `:burst`.
import { writeFileSync } from 'node:fs';

/** Opens the extension host's inspector (SIGUSR1); returns `send(method, params)` and `close()`. */
export async function inspect(pid, onEvent = () => {}) {
  const { default: WebSocket } = await import('ws');
  process.kill(pid, 'SIGUSR1');
  let target;
  for (let i = 0; i < 50 && !target; i++) {
    await new Promise((r) => setTimeout(r, 100));
    target = await fetch('http://127.0.0.1:9229/json/list')
      .then((r) => r.json())
      .then((l) => l[0])
      .catch(() => undefined);
  }
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((r) => ws.once('open', r));
  let id = 0;
  const pending = new Map();
  ws.on('message', (d) => {
    const m = JSON.parse(String(d));
    if (m.id === undefined) onEvent(m);
    else pending.get(m.id)?.(m.result);
  });
  const send = (method, params = {}) => new Promise((r) => (pending.set(++id, r), ws.send(JSON.stringify({ id, method, params }))));
  return { send, close: () => ws.close() };
}

/** Opens the extension host's inspector and starts its profiler; returns `stop()` → the profile. */
async function profileExtensionHost(pid) {
  const { send, close } = await inspect(pid);
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 200 });
  await send('Profiler.start');
  return async () => {
    const { profile } = await send('Profiler.stop');
    close();
    return profile;
  };
}

export async function diagnose(page, mode, runWorkload, hostPid) {
  // ACP_BENCH_MOUSE=x,y: where the pointer rests during the workload (hover follows layout there).
  if (process.env.ACP_BENCH_MOUSE) {
    const [x, y] = process.env.ACP_BENCH_MOUSE.split(',').map(Number);
    await page.mouse.move(x, y);
  }
  const stopHost = mode === 'host' ? await profileExtensionHost(hostPid) : undefined;
  const cdp = await page.context().newCDPSession(page);
  const arrivals = { plan: new Map(), chat: new Map() };
  // Per direction: frames, bytes, and the RPC method names they carry (VS Code's names start with `$`).
  const traffic = { in: { frames: 0, bytes: 0, methods: {} }, out: { frames: 0, bytes: 0, methods: {} } };
  const count = (dir, text) => {
    const t = traffic[dir];
    t.frames++;
    t.bytes += text.length;
    for (const m of text.matchAll(/\$[a-zA-Z]+/g)) t.methods[m[0]] = (t.methods[m[0]] ?? 0) + 1;
  };
  const payload = (r) => (r.opcode === 2 ? Buffer.from(r.payloadData, 'base64').toString('latin1') : r.payloadData);
  if (mode === 'net') {
    await cdp.send('Network.enable');
    cdp.on('Network.webSocketFrameSent', (e) => count('out', payload(e.response)));
    cdp.on('Network.webSocketFrameReceived', (e) => {
      const now = Date.now();
      const text = payload(e.response);
      count('in', text);
      for (const m of text.matchAll(/tick (\d+) @(\d+(?:\.\d+)?)/g)) if (!arrivals.plan.has(m[1])) arrivals.plan.set(m[1], now - Number(m[2]));
      for (const m of text.matchAll(/‹(\d+)@(\d+(?:\.\d+)?)›/g)) if (!arrivals.chat.has(m[1])) arrivals.chat.set(m[1], now - Number(m[2]));
    });
  }
  if (mode === 'profile') {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
  }
  const browser = page.context().browser();
  if (mode === 'trace')
    await browser.startTracing(page, {
      path: '/tmp/renderer-trace.json',
      categories: ['devtools.timeline', 'toplevel', 'v8.execute', 'blink', 'disabled-by-default-devtools.timeline'],
    });
  // ACP_BENCH_DIAG=anim: the animations running in every frame of the page, 10 s into the workload.
  const animations =
    mode === 'anim'
      ? new Promise((r) => setTimeout(r, 10_000)).then(() =>
          Promise.all(
            page.frames().map((f) =>
              f
                .evaluate(() =>
                  document.getAnimations().map((a) => {
                    const t = a.effect?.target;
                    return `${a.animationName ?? a.constructor.name} on ${t?.tagName ?? '?'}.${String(t?.className ?? '').slice(0, 80)} (${a.playState})`;
                  }),
                )
                .then((l) => `${f.url().slice(0, 60)}: ${l.length ? l.join('; ') : 'none'}`)
                .catch((e) => `${f.url().slice(0, 60)}: ${e.message.slice(0, 60)}`),
            ),
          ),
        )
      : undefined;
  // ACP_BENCH_DIAG=mut: which elements of the workbench change, and how often, 10–20 s into the workload.
  const mutations =
    mode === 'mut'
      ? new Promise((r) => setTimeout(r, 10_000)).then(async () => {
          await page.evaluate(() => {
            const seen = new Map();
            const name = (n) => {
              const parts = [];
              for (let e = n.nodeType === 1 ? n : n.parentElement; e && parts.length < 4; e = e.parentElement)
                parts.push(
                  `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}${typeof e.className === 'string' && e.className ? `.${e.className.trim().split(/\s+/).slice(0, 3).join('.')}` : ''}`,
                );
              return parts.join(' < ');
            };
            const o = new MutationObserver((ms) => {
              for (const m of ms) {
                const k = `${m.type}${m.attributeName ? `[${m.attributeName}]` : ''} ${name(m.target)}`;
                seen.set(k, (seen.get(k) ?? 0) + 1);
              }
            });
            o.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
            window.__diagMutations = () => (o.disconnect(), [...seen].sort((a, b) => b[1] - a[1]).slice(0, 25));
          });
          await new Promise((r) => setTimeout(r, 10_000));
          return page.evaluate(() => window.__diagMutations());
        })
      : undefined;
  const out = await runWorkload();
  if (mutations) for (const [k, n] of await mutations) console.log(`DIAG mutations in 10 s: ${n} ${k}`);
  if (animations) for (const l of await animations) console.log(`DIAG animations ${l}`);
  if (stopHost) writeFileSync('/tmp/exthost.cpuprofile', JSON.stringify(await stopHost()));
  if (mode === 'trace') await browser.stopTracing();
  if (mode === 'profile') writeFileSync('/tmp/renderer.cpuprofile', JSON.stringify((await cdp.send('Profiler.stop')).profile));
  const q = (m) => {
    const v = [...m.values()].sort((a, b) => a - b);
    return `n ${v.length} p50 ${v[Math.floor(v.length / 2)]} p95 ${v[Math.floor(v.length * 0.95)]} max ${v.at(-1)}`;
  };
  if (mode === 'net') {
    console.log(`DIAG websocket arrival: plan ${q(arrivals.plan)}; chat ${q(arrivals.chat)}`);
    for (const [dir, t] of Object.entries(traffic)) {
      const top = Object.entries(t.methods)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 15);
      console.log(`DIAG websocket ${dir}: ${t.frames} frames, ${t.bytes} bytes; methods ${top.map(([m, n]) => `${m} ${n}`).join(', ')}`);
    }
  }
  console.log('DIAG result', JSON.stringify(out));
}

/** ACP_BENCH_DIAG=heap: the extension host's heap at rest after a full collection, and a snapshot to `file`. */
export async function heapAtRest(pid, file) {
  const chunks = [];
  const { send, close } = await inspect(pid, (m) => {
    if (m.method === 'HeapProfiler.addHeapSnapshotChunk') chunks.push(m.params.chunk);
  });
  await send('HeapProfiler.enable');
  await send('HeapProfiler.collectGarbage');
  await send('HeapProfiler.collectGarbage');
  const usage = await send('Runtime.getHeapUsage');
  await send('HeapProfiler.takeHeapSnapshot', { reportProgress: false });
  writeFileSync(file, chunks.join(''));
  close();
  console.log(`DIAG heap at rest (${file}): used ${(usage.usedSize / 1048576).toFixed(1)} MiB of ${(usage.totalSize / 1048576).toFixed(1)} MiB`);
  return usage;
}
