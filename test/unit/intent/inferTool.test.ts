// Seed row: a tool call that names no tool is matched to the plan's steps by its title and ACP
// kind (docs/INTENT.md, "A call without a tool name"), and says when it can't.
import * as assert from 'node:assert/strict';
import { IntentTracker } from '../../../src/intent/tracker';
import { inferToolName } from '../../../src/intent/toolName';
import { SessionIntent } from '../../../src/app/intent/sessionIntent';
import { at } from './helpers';
import { german } from '../l10n/german';

const TOOLS = ['read_file', 'edit_file', 'github_list_issues', 'Bash'];
const PLAN = {
  version: 1,
  goal: 'g',
  user: 'ada@example.com',
  steps: [{ tool: 'read_file', args: { path: { glob: 'src/**' } } }, { tool: 'edit_file', args: { path: { eq: 'src/a.ts' } } }, { tool: 'github_list_issues' }],
};

describe('inferring the tool of a call without a tool name', () => {
  it('takes a step tool the title starts with (exact case, then a space, "(" or ":"), the longest first', () => {
    assert.deepEqual(inferToolName(TOOLS, 'github_list_issues', 'other'), { ok: true, toolName: 'github_list_issues', from: 'title' });
    assert.deepEqual(inferToolName(TOOLS, '  read_file(src/a.ts)', 'edit'), { ok: true, toolName: 'read_file', from: 'title' });
    assert.deepEqual(inferToolName(TOOLS, 'Bash: npm test', undefined), { ok: true, toolName: 'Bash', from: 'title' });
    assert.deepEqual(inferToolName(['read', 'read_file'], 'read_file x', undefined), { ok: true, toolName: 'read_file', from: 'title' });
    // Not a prefix at a word boundary, or another case: not the tool.
    assert.equal(inferToolName(TOOLS, 'read_files', undefined).ok, false);
    assert.equal(inferToolName(TOOLS, 'Read_file src', undefined).ok, false);
  });

  it("falls back to the ACP kind when exactly one of the plan's tools has it", () => {
    assert.deepEqual(inferToolName(TOOLS, 'Reading src/a.ts', 'read'), { ok: true, toolName: 'read_file', from: 'kind' });
    assert.deepEqual(inferToolName(TOOLS, 'npm test', 'execute'), { ok: true, toolName: 'Bash', from: 'kind' });
    assert.deepEqual(inferToolName(['Read', 'Edit'], undefined, 'edit'), { ok: true, toolName: 'Edit', from: 'kind' });
  });

  it('says why it cannot', () => {
    const many = inferToolName(['read_file', 'view'], 'Look at a.ts', 'read');
    assert.deepEqual(many, {
      ok: false,
      why: 'The call names no tool; its title "Look at a.ts" names no step\'s tool and its kind "read" fits several steps\' tools (read_file, view).',
    });
    assert.match((inferToolName(TOOLS, undefined, undefined) as { why: string }).why, /it has no title and it has no kind/);
    assert.match((inferToolName(TOOLS, 'x', 'fetch') as { why: string }).why, /its kind "fetch" fits no step's tool/);
    assert.match((inferToolName(TOOLS, 'x', 'think') as { why: string }).why, /its kind "think" says nothing about the tool/);
    assert.match((inferToolName(TOOLS, 'x', 'constructor') as { why: string }).why, /says nothing about the tool/);
  });

  it("says why in the user's language (l10n)", () => {
    assert.deepEqual(inferToolName(TOOLS, undefined, undefined, german), {
      ok: false,
      why: 'Der Aufruf nennt kein Werkzeug; er hat keinen Titel und keine Art.',
    });
    assert.match(
      (inferToolName(['read_file', 'view'], 'Look at a.ts', 'read', german) as { why: string }).why,
      /sein Titel "Look at a.ts" nennt kein Werkzeug eines Schritts, und seine Art „read“ passt zu den Werkzeugen mehrerer Schritte \(read_file, view\)/,
    );
  });

  it('judges the call with the inferred tool, says so, and keeps the title and kind of earlier events', () => {
    const t = new IntentTracker({ now: () => at(0) });
    t.apply(
      { planId: 'p', plan: { ...PLAN, steps: PLAN.steps.map((s) => ({ maxCalls: 20, required: false, ...s })) } as never, rawPlan: PLAN },
      { state: 'unverified', detail: '' },
    );
    const first = t.checkCall({ toolCallId: 'c1', title: 'Reading a file', kind: 'read' });
    assert.equal(first.verdict, 'cannot_check');
    assert.equal(first.verdict === 'cannot_check' && first.reason, 'input_unknown');
    const v = t.checkCall({ toolCallId: 'c1', rawInput: { path: 'src/x.ts' } });
    assert.equal(v.verdict, 'in_plan');
    assert.equal(v.inferredFrom, 'kind');
    assert.match(v.detail, /"read_file" was inferred from its kind/);
    const out = t.checkCall({ toolCallId: 'c2', title: 'edit_file: package.json', kind: 'edit', rawInput: { path: 'package.json' } });
    assert.equal(out.verdict, 'not_in_plan');
    assert.equal(out.inferredFrom, 'title');
    // A named call is never inferred.
    assert.equal(t.checkCall({ toolCallId: 'c3', name: 'edit_file', title: 'read_file', rawInput: { path: 'src/a.ts' } }).inferredFrom, undefined);
  });

  it('shows the calls it could not check, with the reason, in the intent view', () => {
    const s = new SessionIntent('a', 's', { now: () => at(0) });
    assert.equal(s.receive({ type: '_intent', planId: 'p', plan: PLAN }), true);
    s.observe({ toolCallId: 'u1', title: 'Fetching the page', kind: 'fetch', rawInput: {} }, 'Fetching the page');
    s.observe({ toolCallId: 'u2', title: 'github_list_issues', rawInput: {} }, 'github_list_issues');
    const v = s.view('p');
    assert.ok(v.kind === 'active');
    assert.deepEqual(v.unchecked, [
      {
        toolCallId: 'u1',
        title: 'Fetching the page',
        detail: 'The call names no tool; its title "Fetching the page" names no step\'s tool and its kind "fetch" fits no step\'s tool.',
      },
    ]);
    assert.deepEqual(
      v.steps.map((x) => x.callsUsed),
      [0, 0, 1],
    );
  });
});
