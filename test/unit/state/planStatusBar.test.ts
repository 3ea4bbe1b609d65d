import assert from 'node:assert/strict';
import { summarizeSteps } from '../../../src/state/planSummary';
import { escapeIcons, focusPlan, statusBarView, type StatusBarPlan, type StatusBarSession } from '../../../src/ui/statusBarText';

const session = (over: Partial<StatusBarSession> = {}): StatusBarSession => ({ sessionId: 's1', turnState: 'idle', pendingPermissions: 0, ...over });
const plan = (planId: string, seq: number, statuses: [string, string][], type = 'items'): StatusBarPlan => ({
  planId,
  seq,
  type,
  summary: summarizeSteps(
    1,
    statuses.map(([status, content]) => ({ status, content })),
  ),
});

describe('status bar text', () => {
  it('is hidden without a session', () => {
    assert.deepEqual(statusBarView(undefined, []), { visible: false, text: '', tooltip: '', attention: false });
  });

  it('shows progress and the current step of the focus plan', () => {
    const p = plan('p1', 1, [
      ['completed', 'a'],
      ['completed', 'b'],
      ['completed', 'c'],
      ['in_progress', 'Run tests'],
      ['pending', 'e'],
      ['pending', 'f'],
      ['pending', 'g'],
    ]);
    const v = statusBarView(session(), [p]);
    assert.equal(v.text, '$(checklist) 3/7 · Run tests');
    assert.equal(v.visible, true);
    assert.equal(v.attention, false);
    assert.equal(v.focusPlanId, 'p1');
    assert.match(v.tooltip, /p1: v1 — 3\/7 done, 0 blocked — now: Run tests/);
  });

  it('spins while the turn runs, and says what it does without a plan', () => {
    assert.equal(statusBarView(session({ turnState: 'running' }), [plan('p', 1, [['in_progress', 'x']])]).text, '$(loading~spin) 0/1 · x');
    assert.equal(statusBarView(session({ turnState: 'running' }), []).text, '$(loading~spin) Working');
    assert.equal(statusBarView(session(), []).text, '$(checklist) No plan');
  });

  it('asks for attention when permissions are pending', () => {
    const v = statusBarView(session({ turnState: 'running', pendingPermissions: 2 }), [
      plan('p', 1, [
        ['completed', 'a'],
        ['in_progress', 'b'],
      ]),
    ]);
    assert.equal(v.text, '$(bell) 1/2 · waiting for you');
    assert.equal(v.attention, true);
    assert.match(v.tooltip, /2 permission requests waiting for you/);
    assert.equal(statusBarView(session({ turnState: 'requires_action' }), []).text, '$(bell) No plan · waiting for you');
  });

  it('focuses the most recently updated unresolved plan, else the most recent one', () => {
    const done = plan('done', 9, [['completed', 'a']]);
    const older = plan('older', 2, [['pending', 'a']]);
    const newer = plan('newer', 5, [['in_progress', 'b']]);
    assert.equal(focusPlan([older, done, newer])?.planId, 'newer');
    assert.equal(focusPlan([done, plan('done2', 3, [['cancelled', 'x']])])?.planId, 'done');
    assert.equal(statusBarView(session(), [done]).text, '$(checklist) 1/1');
  });

  it('never lets a plan without steps hold the status bar while a plan with steps exists', () => {
    const custom = { planId: 'custom', seq: 9, type: 'unknown', summary: summarizeSteps(1, []) };
    const done = plan('impl', 5, [
      ['completed', 'a'],
      ['completed', 'b'],
    ]);
    assert.equal(focusPlan([done, custom])?.planId, 'impl');
    assert.equal(statusBarView(session(), [done, custom]).text, '$(checklist) 2/2');
    assert.equal(focusPlan([custom])?.planId, 'custom');
  });

  it('shows the planId of a plan without steps, and cuts long steps', () => {
    const md = { planId: 'design', seq: 1, type: 'markdown', summary: summarizeSteps(1, []) };
    assert.equal(statusBarView(session(), [md]).text, '$(checklist) design');
    const long = plan('p', 1, [['in_progress', 'x'.repeat(100)]]);
    assert.equal(statusBarView(session(), [long]).text, `$(checklist) 0/1 · ${'x'.repeat(39)}…`);
  });

  it('escapes icon syntax in agent text', () => {
    assert.equal(escapeIcons('a $(bell) b'), 'a \\$(bell) b');
    const p = plan('p', 1, [['in_progress', 'Ring $(bell)']]);
    assert.equal(statusBarView(session(), [p]).text, '$(checklist) 0/1 · Ring \\$(bell)');
  });
});
