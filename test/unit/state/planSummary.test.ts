import assert from 'node:assert/strict';
import { statusLabel, summarizeSteps, fileName, truncate } from '../../../src/state/planSummary';
import { summarizePlan } from '../../../src/state/planTypes';

const st = (status: string, content = status) => ({ status, content });

describe('plan summary', () => {
  it('writes "vN — done/total done" and names custom statuses', () => {
    const s = summarizeSteps(3, [st('completed'), st('in_progress', 'Wire flag parsing'), st('_blocked'), st('pending'), st('pending')]);
    assert.equal(s.header, 'v3 — 1/5 done, 1 blocked');
    assert.deepEqual(s.counts, { completed: 1, in_progress: 1, _blocked: 1, pending: 2 });
    assert.deepEqual(s.current, { index: 1, content: 'Wire flag parsing', status: 'in_progress' });
    assert.equal(s.resolved, false);
    assert.equal(s.allDone, false);
  });

  it('counts cancelled as resolved but not done', () => {
    const s = summarizeSteps(4, [st('completed'), st('cancelled'), st('completed')]);
    assert.equal(s.header, 'v4 — 2/3 done, 0 blocked, 1 cancelled');
    assert.equal(s.resolved, true);
    assert.equal(s.allDone, false);
  });

  it('lists custom and future statuses by name in order of appearance, then cancelled', () => {
    const s = summarizeSteps(2, [st('cancelled'), st('_needs_review'), st('failed'), st('_needs_review'), st('completed')]);
    assert.equal(s.header, 'v2 — 1/5 done, 0 blocked, 2 needs review, 1 failed, 1 cancelled');
    assert.equal(s.resolved, false, 'custom statuses are not resolved');
  });

  it('always carries the blocked count, "0 blocked" included, first after the done count (odek seed)', () => {
    assert.equal(summarizeSteps(3, [st('completed'), st('in_progress'), st('pending')]).header, 'v3 — 1/3 done, 0 blocked');
    assert.equal(summarizeSteps(3, [st('review'), st('blocked'), st('_blocked'), st('pending')]).header, 'v3 — 0/4 done, 2 blocked, 1 review');
    assert.equal(summarizeSteps(1, [st('pending')]).header, 'v1 — 0/1 done, 0 blocked');
    // A finished plan collapses to one line without counts.
    assert.equal(summarizeSteps(1, [st('completed'), st('completed')]).header, 'v1 — all 2 steps complete');
  });

  it('collapses to "all N steps complete" when everything is done', () => {
    assert.equal(summarizeSteps(7, [st('completed'), st('completed'), st('completed'), st('completed'), st('completed')]).header, 'v7 — all 5 steps complete');
    assert.equal(summarizeSteps(1, [st('completed')]).header, 'v1 — the only step complete');
    const s = summarizeSteps(7, [st('completed'), st('completed')]);
    assert.equal(s.allDone, true);
    assert.equal(s.resolved, true);
    assert.equal(s.current, undefined);
  });

  it('says so for an empty plan', () => {
    const s = summarizeSteps(1, []);
    assert.equal(s.header, 'v1 — empty plan');
    assert.equal(s.resolved, false);
  });

  it('takes the first in-progress entry as current', () => {
    const s = summarizeSteps(1, [st('pending', 'a'), st('in_progress', 'b'), st('in_progress', 'c')]);
    assert.equal(s.current?.content, 'b');
    assert.equal(summarizeSteps(1, [st('pending', 'a')]).current, undefined);
  });

  it('summarizes markdown, file and unknown plans', () => {
    assert.equal(summarizePlan(2, { type: 'markdown', planId: 'm', content: '# Title\nprose only' }).header, 'v2 — markdown, no checklist');
    assert.equal(summarizePlan(1, { type: 'markdown', planId: 'm', content: '- [x] a\n- [x] b' }).header, 'v1 — all 2 steps complete');
    assert.equal(summarizePlan(1, { type: 'file', planId: 'f', uri: 'file:///tmp/My%20Plan.md' }).header, 'v1 — file My Plan.md');
    assert.equal(summarizePlan(1, { type: 'file', planId: 'f', uri: 'file:///tmp/p.md' }, { text: '- [ ] a' }).header, 'v1 — 0/1 done, 0 blocked');
    assert.equal(summarizePlan(1, { type: 'unknown', planId: 'u', rawType: '_custom', raw: {} }).header, 'v1 — _custom plan');
  });

  it('names statuses for people', () => {
    assert.equal(statusLabel('in_progress'), 'in progress');
    assert.equal(statusLabel('_blocked'), 'blocked');
    assert.equal(statusLabel('__waiting-on_ci'), 'waiting on ci');
    assert.equal(statusLabel('_'), '_');
  });

  it('truncates to one line and names files', () => {
    assert.equal(truncate('a\n  b', 10), 'a b');
    assert.equal(truncate('abcdefghijkl', 6), 'abcde…');
    assert.equal(fileName('file:///a/b/plan.md?x#y'), 'plan.md');
  });
});
