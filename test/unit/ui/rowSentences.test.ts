// What a screen reader says for Plans rows and the status bar item: sentences in words, with the
// step's place in its plan and its work, a file by its workspace path, symbols said as words.
import * as assert from 'node:assert/strict';
import { agentStatusWords, callSentence, fileSentence, labelOf, rowSentence, stepSentence } from '../../../src/ui/tree/rowSentences';
import { german } from '../l10n/german';
import { statusBarView } from '../../../src/ui/statusBarText';
import type { PlanSummary } from '../../../src/state/planSummary';

describe('Spoken sentences of Plans rows and the status bar', () => {
  it('a step says its place, status, priority and work', () => {
    assert.equal(
      stepSentence({ index: 1, total: 5, content: 'Write the tests', status: 'in_progress', priority: 'high', calls: 3, files: 1 }),
      'Step 2 of 5, Write the tests, in progress, priority high, 3 tool calls, 1 file changed',
    );
    assert.equal(stepSentence({ index: 0, total: 1, content: '  ', status: 'completed' }), 'Step 1 of 1, empty step, done');
  });

  it('a file by its workspace path with its lines; a call by its title, kind and status', () => {
    assert.equal(fileSentence('src/app.ts', { added: 3, removed: 1 }), 'File src/app.ts, changed in this step, 3 lines added, 1 removed');
    assert.equal(fileSentence('README.md'), 'File README.md, changed in this step');
    assert.equal(callSentence('Read hello.ts', 'read', 'completed'), 'Tool call Read hello.ts, read, done');
    assert.equal(callSentence('Think', 'other', 'in_progress'), 'Tool call Think, in progress');
  });

  // Mutation: the agent row's description shows the status as sent ("running") → the German row says "running".
  it('an agent\'s status in words, in German too (the row and its spoken label say "läuft")', () => {
    for (const s of ['stopped', 'starting', 'running', 'stopping', 'restarting', 'crashed', 'failed', 'gone']) assert.ok(agentStatusWords(s, german));
    assert.equal(agentStatusWords('running', german), 'läuft');
    assert.equal(rowSentence('Demo Agent', `v2 · ${agentStatusWords('running', german)}`, 'agent:running', german), 'Agent Demo Agent, v2, läuft');
    assert.equal(agentStatusWords('half_awake'), 'half awake');
  });

  it('any other row: its kind, label and description, symbols as words', () => {
    assert.equal(rowSentence('impl', 'items · 2/5 · 1 blocked', 'plan:items'), 'Plan impl, items, 2 of 5, 1 blocked');
    assert.equal(rowSentence('Demo Agent', 'v2 · running', 'agent:running'), 'Agent Demo Agent, v2, running');
    assert.equal(rowSentence('No steps yet.', '', 'info'), 'No steps yet.');
    assert.equal(labelOf({ label: 'x' }), 'x');
    assert.equal(labelOf(undefined), '');
  });

  it('the status bar item reads as a sentence, without icons', () => {
    const summary = (done: number, total: number, current?: string): PlanSummary =>
      ({
        done,
        total,
        resolved: done === total,
        header: `${done}/${total}`,
        ...(current ? { current: { index: done, content: current } } : {}),
      }) as unknown as PlanSummary;
    const session = { sessionId: 's', turnState: 'running', pendingPermissions: 0 };
    const plan = { planId: 'impl', type: 'items', summary: summary(3, 7, 'Run tests'), seq: 1 };
    assert.equal(statusBarView(session, [plan]).accessibilityLabel, 'ACP plan impl: 3 of 7 steps done, now: Run tests. The agent is working.');
    assert.equal(
      statusBarView({ ...session, pendingPermissions: 1 }, [plan]).accessibilityLabel,
      'ACP plan impl: 3 of 7 steps done. The agent is waiting for you.',
    );
    assert.equal(statusBarView({ ...session, turnState: 'idle' }, []).accessibilityLabel, 'ACP: no plan.');
  });
});
