// The live usage meter (src/ui/usage/usageMeter.ts) fed by the ledger as reports arrive: a
// session's row gets `<context used>/<size> · <cost>` from the first usage_update of a turn that
// is still running (not only when it ends), tokens from a prompt result when nothing else was
// reported; the tooltip words context, tokens, cost and rate limits.
import * as assert from 'node:assert/strict';
import { UsageLedger } from '../../../src/app/usage/usageLedger';
import type { SessionEvent } from '../../../src/protocol/domain';
import { compact, limitState, meterText, money, rateLimitLines, usageLines, windowName } from '../../../src/ui/usage/usageMeter';

const running: SessionEvent = { sessionId: 's', kind: 'state', state: 'running' };
const usage = (used: number, amount?: number): SessionEvent => ({
  sessionId: 's',
  kind: 'usage',
  used,
  size: 200_000,
  ...(amount === undefined ? {} : { cost: { amount, currency: 'USD' } }),
});

describe('usage meter', () => {
  it('writes figures for a narrow row', () => {
    assert.deepEqual([0, 950, 1250, 42_000, 199_999, 999_949, 1_500_000].map(compact), ['0', '950', '1.3k', '42k', '200k', '1M', '1.5M']);
    assert.equal(money(0.12, 'USD'), '$0.12');
    assert.equal(money(0.0042, 'USD'), '$0.0042');
    assert.equal(money(1.5, 'EUR', 'de'), '1,50\u00a0€');
    assert.equal(money(2, 'credits'), '2.00 credits');
  });

  it('moves while the turn runs: each usage_update changes the row, before the turn ends', () => {
    const l = new UsageLedger();
    l.apply('a', running, 1);
    assert.equal(meterText(l.session('a', 's')), undefined, 'nothing reported yet: nothing shown');
    l.apply('a', usage(42_000, 0.12), 2);
    assert.equal(meterText(l.session('a', 's')), '42k/200k · $0.12');
    l.apply('a', usage(61_500, 0.2), 3);
    assert.equal(meterText(l.session('a', 's')), '61.5k/200k · $0.20');
    assert.deepEqual(usageLines(l.session('a', 's')), ['Context: 61,500 of 200,000 tokens (31%)', 'Cost so far: $0.20']);
  });

  it("a prompt result's tokens show when the agent reports no context window nor cost", () => {
    const l = new UsageLedger();
    l.apply('a', { sessionId: 's', kind: 'state', state: 'idle', stopReason: 'end_turn', usage: { inputTokens: 10_000, outputTokens: 2_300 } }, 1);
    assert.equal(meterText(l.session('a', 's')), '12.3k tokens');
    assert.deepEqual(usageLines(l.session('a', 's')), ['Tokens: 10,000 in, 2,300 out, 12,300 in all']);
    l.apply('a', usage(50_000), 2);
    assert.equal(meterText(l.session('a', 's')), '50k/200k');
  });

  it('words rate limits: window, used, status, reset', () => {
    const limit = { window: 'five_hour', usedPercent: 41.6, status: 'allowed_warning', resetsAt: Date.UTC(2027, 0, 2, 15, 0), t: 1, raw: {} };
    assert.equal(windowName(limit), 'five hour');
    assert.equal(windowName({ ...limit, window: 'Codex primary', windowMinutes: 300 }), 'Codex primary (5 h)');
    assert.equal(windowName({ ...limit, window: 'Codex secondary', windowMinutes: 10080 }), 'Codex secondary (7 d)');
    assert.match(limitState(limit), /^42% used, allowed warning, resets \S+/);
    assert.equal(limitState({ window: 'x', t: 1, raw: {} }), 'reported');
    assert.deepEqual(rateLimitLines([{ window: 'seven_day', usedPercent: 5, status: 'allowed', t: 1, raw: {} }]), ['Rate limit seven day: 5% used']);
  });
});
