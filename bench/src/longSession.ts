// Section 3 — long sessions. The cost of appending message chunk #100 versus chunk #10,000:
// median ns per append over a window of 64 appends around each, over many fresh transcripts.
//   one-message:  every chunk appends to the same message (one message grows to 10,000 chunks);
//   many-items:   chunks of 50-chunk messages with a tool call between messages (the transcript
//                 grows to ~400 items);
//   + view:       the same, with the conversation view's DeltaPump attached (headless: its `post`
//                 is a counter) and flushed after every append — the worst case, no coalescing —
//                 also reporting messages posted and bytes posted per append.
// Finally the pump with its real 24 ms coalescing timer while 10,000 chunks stream in one second.
import type { SessionEvent } from '../../src/protocol/domain';
import { Transcript } from '../../src/state/transcript';
import { DeltaPump } from '../../src/ui/conversation/pump';
import type { ToWebview } from '../../src/ui/conversation/webviewMessages';
import { report } from './common';

const S = 'bench-session';
const N = 10_000;
const WINDOW = 64;
const REPS = Number(process.argv[2] ?? 150);

function chunkText(i: number): string {
  return `chunk ${i} of a long answer, with some words to carry `;
}

function stream(kind: 'one-message' | 'many-items'): SessionEvent[] {
  const out: SessionEvent[] = [];
  for (let i = 1; i <= N; i++) {
    const messageId = kind === 'one-message' ? 'long' : `m${Math.floor((i - 1) / 50)}`;
    if (kind === 'many-items' && (i - 1) % 50 === 0 && i > 1) {
      out.push({ sessionId: S, kind: 'tool_call', toolCallId: `tc${i}`, fields: { title: 'Read file', kind: 'read', status: 'completed' } });
    }
    out.push({ sessionId: S, kind: 'message_chunk', role: 'agent', messageId, content: { type: 'text', text: chunkText(i) } });
  }
  return out;
}

interface Window {
  at: number;
  ns: number[];
  posts: number[];
  bytes: number[];
}

function run(kind: 'one-message' | 'many-items', withView: boolean): Record<string, unknown> {
  const events = stream(kind);
  // The chunk number of each event (tool calls are not chunks).
  const chunkNo: number[] = [];
  let c = 0;
  for (const e of events) chunkNo.push(e.kind === 'message_chunk' ? ++c : 0);
  const windows: Window[] = [
    { at: 100, ns: [], posts: [], bytes: [] },
    { at: N, ns: [], posts: [], bytes: [] },
  ];
  for (let rep = 0; rep < REPS; rep++) {
    const t = new Transcript();
    t.sessionFor(S);
    let posts = 0;
    let bytes = 0;
    const pump = withView
      ? new DeltaPump(
          t,
          (m: ToWebview) => {
            posts++;
            bytes += JSON.stringify(m).length;
          },
          {
            setTimer: () => 1,
            clearTimer: () => undefined,
          },
        )
      : undefined;
    if (pump) {
      pump.setSession(S);
      pump.start();
    }
    let i = 0;
    for (const w of windows) {
      const from = w.at - WINDOW / 2;
      while (i < events.length && chunkNo[i] !== from) {
        t.apply(events[i]);
        pump?.flush();
        i++;
      }
      // Time WINDOW consecutive chunk appends (ending after chunk #at + WINDOW/2 - 1, or the last).
      const p0 = posts;
      const b0 = bytes;
      let n = 0;
      const t0 = process.hrtime.bigint();
      while (i < events.length && n < WINDOW) {
        t.apply(events[i]);
        pump?.flush();
        if (chunkNo[i] !== 0) n++;
        i++;
      }
      const dt = Number(process.hrtime.bigint() - t0);
      w.ns.push(dt / n);
      w.posts.push((posts - p0) / n);
      w.bytes.push((bytes - b0) / n);
    }
    pump?.dispose();
    t.dispose();
  }
  const med = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor(s.length / 2)];
  };
  const [w100, w10k] = windows;
  const out: Record<string, unknown> = {
    scenario: kind + (withView ? ' + view' : ''),
    nsPerAppendAt100: med(w100.ns),
    nsPerAppendAt10000: med(w10k.ns),
    ratio: med(w10k.ns) / med(w100.ns),
  };
  if (withView) {
    Object.assign(out, {
      postsPerAppendAt100: med(w100.posts),
      postsPerAppendAt10000: med(w10k.posts),
      bytesPerAppendAt100: med(w100.bytes),
      bytesPerAppendAt10000: med(w10k.bytes),
    });
  }
  return out;
}

/** The pump with its real coalescing timer: 10,000 chunks arriving over one second. */
async function coalescedView(): Promise<Record<string, unknown>> {
  const events = stream('one-message');
  const t = new Transcript();
  t.sessionFor(S);
  let posts = 0;
  const pump = new DeltaPump(t, () => {
    posts++;
  });
  pump.setSession(S);
  pump.start();
  const before = posts;
  let applied = 0;
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const tick = (): void => {
      const due = Math.min(events.length, Math.ceil(((performance.now() - start) / 1000) * events.length));
      while (applied < due) t.apply(events[applied++]);
      if (applied < events.length) setTimeout(tick, 1);
      else resolve();
    };
    setTimeout(tick, 1);
  });
  await new Promise((r) => setTimeout(r, 100));
  const stats = { ...pump.stats };
  pump.dispose();
  return { appends: applied, messagesPosted: posts - before, postsPerAppend: (posts - before) / applied, opsPosted: stats.opsPosted };
}

async function main(): Promise<void> {
  const scenarios = [run('one-message', false), run('many-items', false), run('one-message', true), run('many-items', true)];
  report({ section: 'longSession', window: WINDOW, reps: REPS, scenarios, coalescedView: await coalescedView() });
}

void main();
