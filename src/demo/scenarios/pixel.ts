// `/pixel <plan|chunk|mixed> <count> <rate> [label]`: the line-to-pixel benchmark's load (bench/vscode.mjs).
// Sends `count` updates at `rate` per second on a fixed schedule (no drift): `plan` rewrites the
// item plan `pixel` (its first entry reads `tick <k> @<send time>`), `chunk` appends `‹<k>@<send
// time>› ` to one agent message; `mixed` sends both streams at once, `count` plan updates at `rate`
// and two message chunks per plan update, spaced evenly between them (50/s and 100/s beside it). The send time is the wall clock in milliseconds with fractions
// (`performance.timeOrigin + performance.now()`), taken as the update is written, so the page can
// tell how long the update took to become visible. count 1…20,000 (default 300), rate 1…5,000/s
// (default 50). A label (1–8 letters) goes before every `k` (`tick a<k> @…`, `‹a<k>@…›`), so one
// session's stamps can be told from other sessions' on the same screen (the ten-agent bench).

import { type Scenario } from './scenario';

export const PIXEL_MAX_COUNT = 20_000;
export const PIXEL_MAX_RATE = 5_000;

export interface PixelArgs {
  kind: 'plan' | 'chunk' | 'mixed';
  count: number;
  rate: number;
  label: string;
}

function clampInt(text: string | undefined, fallback: number, max: number): number {
  const n = Number.parseInt(text ?? '', 10);
  return Number.isFinite(n) ? Math.min(max, Math.max(1, n)) : fallback;
}

export function pixelArgs(args: string): PixelArgs {
  const [kind, count, rate, label] = args.split(/\s+/);
  return {
    kind: kind === 'chunk' || kind === 'mixed' ? kind : 'plan',
    count: clampInt(count, 300, PIXEL_MAX_COUNT),
    rate: clampInt(rate, 50, PIXEL_MAX_RATE),
    label: /^[a-z]{1,8}$/.test(label ?? '') ? label! : '',
  };
}

const wallClock = (): number => performance.timeOrigin + performance.now();
const stamp = (): string => wallClock().toFixed(1);

export const pixelScenario: Scenario = {
  name: 'pixel',
  description: 'Send time-stamped plan updates or message chunks at a steady rate (benchmark)',
  hint: 'plan|chunk|mixed count rate',
  async run(turn, args) {
    const { kind, count, rate, label } = pixelArgs(args);
    const messageId = turn.id('msg');
    const plan = (k: number): void =>
      turn.emit({
        kind: 'plan',
        plan: {
          type: 'items',
          planId: 'pixel',
          entries: [
            { content: `tick ${label}${k} @${stamp()}`, priority: 'high', status: k === count ? 'completed' : 'in_progress' },
            { content: 'Measure line to pixel', priority: 'medium', status: 'pending' },
          ],
        },
      });
    const chunk = (k: number): void => turn.emit({ kind: 'message', role: 'agent', messageId, blocks: [{ type: 'text', text: `‹${label}${k}@${stamp()}› ` }] });
    // Mixed: two slots per plan update, a chunk in each, the plan update in the first.
    const slots = kind === 'mixed' ? 2 : 1;
    const start = wallClock();
    for (let i = 1; i <= count * slots; i++) {
      // Updates due by now go out together; then wait for the next one's time.
      const due = start + ((i - 1) * 1000) / (rate * slots);
      const wait = due - wallClock();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      if (kind === 'plan') plan(i);
      else if (kind === 'chunk') chunk(i);
      else {
        if (i % 2 === 1) plan((i + 1) / 2);
        chunk(i);
      }
    }
    turn.say(`pixel: sent ${count} ${kind} updates at ${rate}/s`);
    await turn.pace();
  },
};
