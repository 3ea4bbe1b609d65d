// Issue 26, goal 5: the steady cost of a turn. The Demo Agent's `/workload <rate>` sends the same
// scripted turn (2,000 chunks, 41 plan updates, 500 tool events) paced at 50 updates/s and as a
// burst; measured: the extension host's CPU time (its /proc entry), the renderers' CPU time (the
// browser's SystemInfo), and for the burst the time from its last update's send to its paint.
// And the extension host's memory at rest: with the extension activated against one without it.
import { readFileSync, readdirSync } from 'node:fs';
import { inspect } from './diag.mjs';

/** Every process below `pid` (from /proc). */
function descendants(pid) {
  const children = new Map();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(d));
    } catch {
      // gone meanwhile
    }
  }
  const out = [];
  const walk = (p) => (children.get(p) ?? []).forEach((c) => (out.push(c), walk(c)));
  walk(pid);
  return out;
}

/** The extension host process of a code-server (its child whose command line says so). */
export function extensionHostPid(serverPid) {
  for (const p of descendants(serverPid)) {
    try {
      if (readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('extensionHost')) return p;
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** User + system CPU seconds of a process so far. */
export function cpuSeconds(pid) {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Resident memory of a process, MiB. */
export function rssMiB(pid) {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** CPU seconds of the browser's renderer processes so far (the workbench and its webviews). */
export async function rendererCpuSeconds(browser) {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    return processInfo.filter((p) => p.type === 'renderer').reduce((s, p) => s + p.cpuTime, 0);
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/** The renderer processes' ids (the workbench and its webviews' frames). */
export async function rendererPids(browser) {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = await cdp.send('SystemInfo.getProcessInfo');
    return processInfo.filter((p) => p.type === 'renderer').map((p) => p.id);
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/**
 * A process's main thread so far (Linux schedstat): seconds on a CPU and seconds waiting on a run
 * queue for one. NaN where it cannot be read.
 */
export function mainThreadSched(pid) {
  try {
    const [run, wait] = readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ').map(Number);
    return { cpu: run / 1e9, wait: wait / 1e9 };
  } catch {
    return { cpu: NaN, wait: NaN };
  }
}

/** The extension host's resident memory after `settleMs` at rest (waits for it to exist first). */
export async function restingRss(serverPid, settleMs = 8000) {
  let pid;
  for (let i = 0; i < 200 && !(pid = extensionHostPid(serverPid)); i++) await new Promise((r) => setTimeout(r, 100));
  if (!pid) return NaN;
  await new Promise((r) => setTimeout(r, settleMs));
  return rssMiB(pid);
}

/**
 * The extension host's resident memory after two full collections (through its inspector, opened
 * with SIGUSR1): at rest its RSS grows with VS Code's own garbage until a collection comes — 148.6
 * → 159.6 MiB in 30 s in one run without this extension — so the figure without a collection
 * depends on when the last one ran.
 */
export async function collectedRss(serverPid) {
  const pid = extensionHostPid(serverPid);
  const { send, close } = await inspect(pid);
  try {
    await send('HeapProfiler.collectGarbage');
    await send('HeapProfiler.collectGarbage');
    return rssMiB(pid);
  } finally {
    close();
  }
}

/** The extension host's CPU seconds per second over `ms` at rest. */
export async function restingCpu(serverPid, ms = REST_WINDOW_MS) {
  const host = extensionHostPid(serverPid);
  const start = cpuSeconds(host);
  const from = performance.now();
  await new Promise((r) => setTimeout(r, ms));
  return (cpuSeconds(host) - start) / ((performance.now() - from) / 1000);
}

/**
 * Runs `/workload <rate>` in the conversation and returns the CPU each side spent from the prompt
 * to the end of the turn (and the last chunk's paint), and the last chunk's send → paint.
 */
export async function workload({ page, conv, browser, serverPid, rate, read, reset, until }) {
  const host = extensionHostPid(serverPid);
  await reset(conv.frame, '__pixelChat');
  const done = `workload: sent 2541 updates at ${rate || 'full speed'}`;
  const said = () => conv.frame.evaluate((d) => (document.querySelector('.transcript')?.textContent ?? '').split(d).length, done);
  const before = await said();
  // What the extension host spends at rest over the same time (VS Code's own timers, e.g. its port
  // finder): measured over a quiet window first, reported beside the turn's figure.
  const restPerSecond = await restingCpu(serverPid);
  const from = performance.now();
  const hostBefore = cpuSeconds(host);
  const rendererBefore = await rendererCpuSeconds(browser);
  await conv.box.fill(`/workload ${rate}`);
  await conv.box.press('Enter');
  await until(page, `the end of /workload ${rate}`, async () => (await said()) > before, 180_000);
  await until(page, 'the last chunk on screen', async () => (await read(conv.frame, '__pixelChat')).some(([k]) => k === 2000), 20_000).catch(() => undefined);
  const hostCpu = cpuSeconds(host) - hostBefore;
  const seconds = (performance.now() - from) / 1000;
  const rendererCpu = (await rendererCpuSeconds(browser)) - rendererBefore;
  const last = (await read(conv.frame, '__pixelChat')).find(([k]) => k === 2000);
  return {
    rate,
    seconds: round(seconds),
    hostCpu: round(hostCpu),
    hostRestCpu: round(restPerSecond * seconds),
    rendererCpu: round(rendererCpu),
    last: last ? round(last[1]) : NaN,
  };
}

const REST_WINDOW_MS = 10_000;
const round = (x) => Math.round(x * 100) / 100;
