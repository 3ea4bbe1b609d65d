// Rate limits as agents send them (src/app/usage/rateLimits.ts), kept by the ledger: the v2 and v1
// adapters keep a usage_update's `_meta`; claude-agent-acp's `_claude/rateLimit` (utilization a
// fraction, resetsAt in Unix seconds) and Codex's snapshot shape (primary/secondary windows) are
// read, a value understood in part is kept with its raw, a hostile list is capped, and the ledger
// keeps each window's newest report per agent (a replayed older one never replaces it).
import * as assert from 'node:assert/strict';
import { createAdapter } from '../../../src/protocol/adapter';
import type { SessionEvent } from '../../../src/protocol/domain';
import { MAX_LIMITS_PER_EVENT, rateLimitsOf } from '../../../src/app/usage/rateLimits';
import { UsageLedger, type UsageChange } from '../../../src/app/usage/usageLedger';
import { decodeOne, S } from '../protocol/support/v2Adapter';

const CLAUDE = { status: 'allowed_warning', rateLimitType: 'five_hour', utilization: 0.42, resetsAt: 1_800_000_000, isUsingOverage: false };
const usage = (sessionId: string, meta?: Record<string, unknown>): SessionEvent => ({
  sessionId,
  kind: 'usage',
  used: 10,
  size: 100,
  ...(meta ? { _meta: meta as never } : {}),
});

describe('rate limits', () => {
  it('the v2 and v1 adapters keep the _meta of a usage_update', () => {
    const wire = { sessionUpdate: 'usage_update', used: 5, size: 9, _meta: { '_claude/rateLimit': CLAUDE } };
    const e = decodeOne(createAdapter(2), wire);
    assert.deepEqual(e, { sessionId: S, kind: 'usage', used: 5, size: 9, _meta: { '_claude/rateLimit': CLAUDE } });
    const v1 = createAdapter(1).decodeUpdate({ sessionId: S, update: wire });
    assert.deepEqual(v1, [{ sessionId: S, kind: 'usage', used: 5, size: 9, _meta: { '_claude/rateLimit': CLAUDE } }]);
  });

  it("reads claude-agent-acp's window: percent from a fraction, reset from Unix seconds, the raw kept", () => {
    assert.deepEqual(rateLimitsOf({ '_claude/rateLimit': CLAUDE }, 7), [
      { window: 'five_hour', usedPercent: 42, resetsAt: 1_800_000_000_000, status: 'allowed_warning', t: 7, raw: CLAUDE },
    ]);
  });

  it("reads a Codex snapshot's primary and secondary windows, and a map of snapshots", () => {
    const snap = {
      limitId: 'codex',
      limitName: 'Codex',
      primary: { usedPercent: 12.5, windowDurationMins: 300, resetsAt: 1_800_000_000 },
      secondary: { usedPercent: 80, windowDurationMins: 10080, resetsAt: '2027-01-01T00:00:00Z' },
    };
    const got = rateLimitsOf({ '_codex/rateLimits': snap }, 1);
    assert.deepEqual(
      got.map((l) => [l.window, l.usedPercent, l.windowMinutes, l.resetsAt]),
      [
        ['Codex primary', 12.5, 300, 1_800_000_000_000],
        ['Codex secondary', 80, 10080, Date.parse('2027-01-01T00:00:00Z')],
      ],
    );
    assert.equal(got[0]!.raw, snap);
    const map = rateLimitsOf({ rateLimits: { rateLimitsByLimitId: { a: { primary: { usedPercent: 1 } }, b: { primary: { usedPercent: 2 } } } } }, 1);
    assert.deepEqual(
      map.map((l) => l.window),
      ['a primary', 'b primary'],
    );
  });

  it('keeps a window understood only in part, ignores other _meta keys and caps a hostile list', () => {
    const odd = { utilization: 'lots', something: [1, 2] };
    assert.deepEqual(rateLimitsOf({ '_x/rate_limit': odd, '_claude/other': CLAUDE }, 3), [{ window: 'rate_limit', t: 3, raw: odd }]);
    assert.deepEqual(rateLimitsOf(undefined, 3), []);
    assert.deepEqual(rateLimitsOf({ '_x/rateLimit': 'not an object' }, 3), []);
    const many = Array.from({ length: 1000 }, (_, i) => ({ rateLimitType: `w${i}`, utilization: 0.1 }));
    assert.equal(rateLimitsOf({ rateLimits: many }, 3).length, MAX_LIMITS_PER_EVENT);
  });

  it("the ledger keeps each agent's newest report per window, says which agent changed, and forgets an agent", () => {
    const l = new UsageLedger();
    const changes: UsageChange[] = [];
    l.onDidChange((c) => changes.push(c));
    l.apply('claude', usage('s1', { '_claude/rateLimit': CLAUDE }), 100);
    l.apply('claude', usage('s2', { '_claude/rateLimit': { ...CLAUDE, utilization: 0.5 } }), 200);
    // A replayed older report does not replace the newer one.
    l.apply('claude', usage('s1', { '_claude/rateLimit': { ...CLAUDE, utilization: 0.1 } }), 50);
    l.apply('claude', usage('s1', { '_claude/rateLimit': { ...CLAUDE, rateLimitType: 'seven_day', utilization: 0.05 } }), 300);
    l.apply('codex', usage('s3'), 300);
    assert.deepEqual(
      l.rateLimits().map((r) => [r.agentId, r.limit.window, r.limit.usedPercent]),
      [
        ['claude', 'five_hour', 50],
        ['claude', 'seven_day', 5],
      ],
    );
    assert.deepEqual(l.rateLimits('codex'), []);
    assert.deepEqual(changes.slice(0, 2), [{ agentId: 'claude', sessionId: 's1' }, { agentId: 'claude' }]);
    assert.ok(!changes.slice(4).some((c) => c.agentId === 'codex' && c.sessionId === undefined), 'no rate limit from codex: no agent-wide change');
    l.forget('claude', 's1');
    assert.equal(l.rateLimits('claude').length, 2, "a deleted session leaves its agent's limits");
    l.forget('claude');
    assert.deepEqual(l.rateLimits('claude'), []);
  });
});
