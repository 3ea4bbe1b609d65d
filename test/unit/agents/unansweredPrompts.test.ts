import * as assert from 'node:assert/strict';
import { MAX_UNANSWERED_PER_SESSION, UnansweredPrompts } from '../../../src/agents/unansweredPrompts';

describe('UnansweredPrompts', () => {
  it('keeps what the agent has not answered; v2 ones are retriable on v2 only, v1 ones never', () => {
    const u = new UnansweredPrompts();
    const a = u.add({ sessionId: 's', blocks: [], key: 'k1', version: 2 });
    u.add({ sessionId: 's', blocks: [], key: 'k2', version: 2 });
    u.add({ sessionId: 's', blocks: [], key: 'k3', version: 1 });
    u.answered(a);
    assert.deepEqual(
      u.takeRetriable('s', 2).map((p) => p.key),
      ['k2'],
    );
    assert.deepEqual(u.takeRetriable('s', 2), [], 'taken once');
    u.add({ sessionId: 't', blocks: [], key: 'k4', version: 2 });
    assert.deepEqual(u.takeRetriable('t', 1), [], 'a v1 connection cannot honor a key');
  });

  it('is bounded per session', () => {
    const u = new UnansweredPrompts();
    for (let i = 0; i < MAX_UNANSWERED_PER_SESSION + 3; i++) u.add({ sessionId: 's', blocks: [], key: `k${i}`, version: 2 });
    const kept = u.takeRetriable('s', 2);
    assert.equal(kept.length, MAX_UNANSWERED_PER_SESSION);
    assert.equal(kept[0].key, 'k3');
  });
});
