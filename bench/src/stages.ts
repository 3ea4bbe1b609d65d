// Per-stage cost of our pipeline on the benchmark stream, in-process and without I/O: JSON.parse
// of a line, the v2 adapter's decodeUpdate (envelope + zod schemas), PlanStore.apply,
// Transcript.apply. Diagnostic only (it tells where the per-update time goes); µs per update,
// overall and per update kind.
import { readFileSync } from 'node:fs';
import { createAdapter } from '../../src/protocol/adapter';
import type { SessionEvent } from '../../src/protocol/domain';
import { PlanStore } from '../../src/state/planStore';
import { Transcript } from '../../src/state/transcript';
import { report } from './common';

const [streamFile, limitArg] = process.argv.slice(2);
const limit = Number(limitArg ?? 100_000);
const text = readFileSync(streamFile, 'utf8');
const lines = text.split('\n', limit).filter((l) => l.length > 0);
const tags = lines.map((l) => /"sessionUpdate":"([^"]+)"/.exec(l)?.[1] ?? '?');

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

const stageMs: Record<string, number[]> = { parse: [], decode: [], planStore: [], transcript: [] };
const perKind: Record<string, { n: number; decode: number; planStore: number; transcript: number }> = {};
for (let round = 0; round < 3; round++) {
  const adapter = createAdapter(2);
  const plans = new PlanStore();
  const transcript = new Transcript();
  let parsed: unknown[] = [];
  let events: SessionEvent[] = [];
  stageMs.parse.push(
    time(() => {
      parsed = lines.map((l) => (JSON.parse(l) as { params: unknown }).params);
    }),
  );
  stageMs.decode.push(
    time(() => {
      events = parsed.map((p) => adapter.decodeUpdate(p)[0]);
    }),
  );
  stageMs.planStore.push(
    time(() => {
      for (const e of events) plans.apply('a', e);
    }),
  );
  stageMs.transcript.push(
    time(() => {
      for (const e of events) transcript.apply(e);
    }),
  );
  if (round === 2) {
    // Per kind, one update at a time (includes timer overhead of ~0.05 µs).
    const adapter2 = createAdapter(2);
    const plans2 = new PlanStore();
    const transcript2 = new Transcript();
    for (let i = 0; i < parsed.length; i++) {
      const k = (perKind[tags[i]] ??= { n: 0, decode: 0, planStore: 0, transcript: 0 });
      let t = performance.now();
      const e = adapter2.decodeUpdate(parsed[i])[0];
      let t2 = performance.now();
      k.decode += t2 - t;
      t = t2;
      plans2.apply('a', e);
      t2 = performance.now();
      k.planStore += t2 - t;
      t = t2;
      transcript2.apply(e);
      k.transcript += performance.now() - t;
      k.n++;
    }
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const us = (ms: number, n: number) => Math.round(((ms * 1000) / n) * 100) / 100;
report({
  section: 'stages',
  updates: lines.length,
  usPerUpdate: Object.fromEntries(Object.entries(stageMs).map(([k, v]) => [k, us(median(v), lines.length)])),
  usPerUpdateByKind: Object.fromEntries(
    Object.entries(perKind)
      .sort((a, b) => b[1].n - a[1].n)
      .map(([k, v]) => [
        k,
        {
          share: Math.round((v.n / lines.length) * 1000) / 10,
          decode: us(v.decode, v.n),
          planStore: us(v.planStore, v.n),
          transcript: us(v.transcript, v.n),
        },
      ]),
  ),
});
