// Diagnosis of one bench workload in the real VS Code (not part of `npm run bench:vscode`):
//   ACP_BENCH_DIAG=trace[:workload]    a Chrome trace of the page → /tmp/renderer-trace.json
//   ACP_BENCH_DIAG=profile[:workload]  a CPU profile of the page's main thread → /tmp/renderer.cpuprofile
//   ACP_BENCH_DIAG=net[:workload]      when the stamps reach the page's websocket (CDP Network)
// The workload is the mixed stream, or `/workload 50` with `:workload`.
import { writeFileSync } from 'node:fs';

export async function diagnose(page, mode, runWorkload) {
  const cdp = await page.context().newCDPSession(page);
  const arrivals = { plan: new Map(), chat: new Map() };
  if (mode === 'net') {
    await cdp.send('Network.enable');
    cdp.on('Network.webSocketFrameReceived', (e) => {
      const now = Date.now();
      const r = e.response;
      const text = r.opcode === 2 ? Buffer.from(r.payloadData, 'base64').toString('utf8') : r.payloadData;
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
  const out = await runWorkload();
  if (mode === 'trace') await browser.stopTracing();
  if (mode === 'profile') writeFileSync('/tmp/renderer.cpuprofile', JSON.stringify((await cdp.send('Profiler.stop')).profile));
  const q = (m) => {
    const v = [...m.values()].sort((a, b) => a - b);
    return `n ${v.length} p50 ${v[Math.floor(v.length / 2)]} p95 ${v[Math.floor(v.length * 0.95)]} max ${v.at(-1)}`;
  };
  if (mode === 'net') console.log(`DIAG websocket arrival: plan ${q(arrivals.plan)}; chat ${q(arrivals.chat)}`);
  console.log('DIAG result', JSON.stringify(out));
}
