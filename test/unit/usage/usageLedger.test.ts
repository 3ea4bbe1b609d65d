// Usage as the ledger keeps it (src/app/usage): a turn's tokens counted when it ends, a session's
// running cost charged to the day it grew on (never twice when the agent repeats its total), sums
// per session, agent and day, a deleted session forgotten; and the CSV a spreadsheet opens without
// running an agent's text as a formula.
import * as assert from 'node:assert/strict';
import { csvCell, usageCsv } from '../../../src/app/usage/usageCsv';
import { UsageLedger } from '../../../src/app/usage/usageLedger';
import type { SessionEvent, Usage } from '../../../src/protocol/domain';

const DAY = 86_400_000;
const day = (t: number): string => `d${Math.floor(t / DAY)}`;
const cost = (sessionId: string, amount: number, used = 10): SessionEvent => ({ sessionId, kind: 'usage', used, size: 100, cost: { amount, currency: 'USD' } });
const turnEnd = (sessionId: string, inputTokens: number, outputTokens: number): SessionEvent => ({
  sessionId,
  kind: 'state',
  state: 'idle',
  stopReason: 'end_turn',
  usage: { inputTokens, outputTokens },
});

describe('UsageLedger', () => {
  it("charges each day what the session's running cost grew by that day, once", () => {
    const l = new UsageLedger(day);
    l.apply('a', cost('s', 0.5), 0);
    l.apply('a', cost('s', 0.5), 10); // the same total again: nothing new
    l.apply('a', cost('s', 0.75), DAY + 1);
    const days = l.rows('day').sort((x, y) => x.key.localeCompare(y.key));
    assert.deepEqual(
      days.map((r) => [r.key, r.costs['USD']]),
      [
        ['d0', 0.5],
        ['d1', 0.25],
      ],
    );
    assert.equal(l.rows('session')[0]!.costs['USD'], 0.75);
  });

  it('counts tokens and turns when a turn ends (a running state counts nothing)', () => {
    const l = new UsageLedger(day);
    l.apply('a', { sessionId: 's', kind: 'state', state: 'running' }, 0);
    l.apply('a', turnEnd('s', 100, 20), 1);
    l.apply('a', turnEnd('s', 50, 5), 2);
    l.apply('a', { sessionId: 's', kind: 'state', state: 'idle', stopReason: 'cancelled' }, 3); // a turn without usage still counts as a turn
    const [r] = l.rows('session');
    assert.deepEqual([r!.turns, r!.inputTokens, r!.outputTokens, r!.totalTokens], [3, 150, 25, 175]);
  });

  it('sums per agent and keeps each session apart, with its newest context window', () => {
    const l = new UsageLedger(day);
    l.apply('a', cost('s1', 1, 40), 0);
    l.apply('a', cost('s2', 2, 70), 1);
    l.apply('b', cost('s3', 4), 2);
    const agents = new Map(l.rows('agent').map((r) => [r.key, r.costs['USD']]));
    assert.deepEqual([...agents].sort(), [
      ['a', 3],
      ['b', 4],
    ]);
    const s2 = l.rows('session').find((r) => r.sessionId === 's2');
    assert.deepEqual(s2?.context, { used: 70, size: 100 });
  });

  it('forgets a deleted session, and tells its listeners', () => {
    const l = new UsageLedger(day);
    l.apply('a', cost('s1', 1), 0);
    l.apply('a', cost('s2', 2), 0);
    let changes = 0;
    l.onDidChange(() => changes++);
    l.forget('a', 's1');
    assert.deepEqual(
      l.rows('session').map((r) => r.sessionId),
      ['s2'],
    );
    assert.equal(changes, 1);
    l.forget('a', 'nope');
    assert.equal(changes, 1, 'nothing forgotten, nothing said');
  });

  it('ignores what an agent cannot mean: negative or non-finite numbers count as 0', () => {
    const l = new UsageLedger(day);
    l.apply(
      'a',
      {
        sessionId: 's',
        kind: 'state',
        state: 'idle',
        stopReason: 'end_turn',
        usage: { inputTokens: -5, outputTokens: Number.NaN, totalTokens: 'x' } as unknown as Usage,
      },
      0,
    );
    const [r] = l.rows('session');
    assert.deepEqual([r!.turns, r!.inputTokens, r!.outputTokens, r!.totalTokens], [1, 0, 0, 0]);
  });
});

describe('usageCsv', () => {
  it('quotes what needs quoting and writes formula-like cells as text', () => {
    assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
    assert.equal(csvCell('+1'), "'+1");
    assert.equal(csvCell('plain'), 'plain');
    assert.equal(csvCell('a,b'), '"a,b"');
    assert.equal(csvCell(0.25), '0.25');
  });

  it('writes one row per session with the names the view gives', () => {
    const l = new UsageLedger(day);
    l.apply('a', cost('s1', 1), 0);
    l.apply('a', turnEnd('s1', 10, 2), 0);
    const csv = usageCsv('session', l.rows('session'), { agent: () => 'Agent A', session: () => '@evil title' });
    const lines = csv.trimEnd().split('\r\n');
    assert.equal(lines[0], 'agent,session,session id,turns,input tokens,output tokens,total tokens,cost (USD),last used');
    assert.equal(lines[1], `Agent A,'@evil title,s1,1,10,2,12,1,${new Date(0).toISOString()}`);
  });
});
