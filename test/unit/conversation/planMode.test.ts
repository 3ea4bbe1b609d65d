import { strict as assert } from 'node:assert';
import type { PermissionOption, PermissionRequest, ToolCallFields } from '../../../src/protocol/domain';
import { explainModeOption, isModeSwitch } from '../../../src/consent/modeSwitch';
import { Transcript, permissionItemId } from '../../../src/state/transcript';
import { PlanStore } from '../../../src/state/planStore';
import { approvedPlanEvent, APPROVED_PLAN_ID } from '../../../src/app/planApproval';
import { costAmount, itemView } from '../../../src/ui/conversation/viewModel';
import { MAX_MEDIA_BASE64, mediaBlocks, mediaProblem } from '../../../src/ui/conversation/promptBlocks';
import { parseFromWebview } from '../../../src/ui/conversation/validate';
import { planLabel } from '../../../src/ui/tree/planLabel';
import { ev, S } from './builders';
import { german } from '../l10n/german';

const PLAN = '# Plan: farewell\n\n## Steps\n- [ ] Add farewell()\n- [ ] Test it';
const CLAUDE_OPTIONS: PermissionOption[] = [
  { optionId: 'default', name: 'Yes, and manually approve edits', kind: 'allow_once' },
  { optionId: 'auto', name: 'Yes, and use auto mode', kind: 'allow_always' },
  { optionId: 'bypassPermissions', name: 'Yes, and bypass permissions', kind: 'allow_always' },
  { optionId: 'plan', name: 'No, keep planning', kind: 'reject_once' },
];
const approval = (fields: ToolCallFields, options = CLAUDE_OPTIONS): PermissionRequest => ({
  sessionId: S,
  title: 'Ready to code?',
  subject: { type: 'tool_call', toolCallId: 'exit1', fields },
  options,
});

describe('plan mode', () => {
  it('knows a mode switch by the subject kind or the kind the transcript knows', () => {
    assert.equal(isModeSwitch(approval({ kind: 'switch_mode' })), true);
    assert.equal(isModeSwitch(approval({}), 'switch_mode'), true);
    assert.equal(isModeSwitch(approval({}), 'edit'), false);
    assert.equal(isModeSwitch(approval({ kind: 'edit' }), 'switch_mode'), false, "the request's own kind wins");
    assert.equal(isModeSwitch({ sessionId: S, title: 'x', options: [] }, 'switch_mode'), false);
  });

  it('explains each option in words, by kind first (a reject never sounds like an approval)', () => {
    const [manual, auto, bypass, keep] = CLAUDE_OPTIONS.map((o) => explainModeOption(o));
    assert.match(manual!, /asks you before each edit or command/);
    assert.match(auto!, /decides by itself/);
    assert.match(bypass!, /WITHOUT asking you/);
    assert.match(keep!, /^Stay in plan mode/);
    assert.match(
      explainModeOption({ optionId: 'acceptEdits', name: 'Yes, and auto-accept edits', kind: 'allow_always' }),
      /edits files without asking; commands still ask/,
    );
    assert.match(explainModeOption({ optionId: 'implement', name: 'Implement', kind: 'allow_once' }), /follow the permissions you have set/);
    // A reject kind named like bypass still explains as staying in plan mode.
    assert.match(explainModeOption({ optionId: 'bypassPermissions', name: 'bypass permissions', kind: 'reject_once' }), /^Stay in plan mode/);
  });

  it('shows the plan from the tool call input on the card, with the options explained', () => {
    const t = new Transcript();
    t.apply(ev.tool('exit1', { title: 'Approve Plan', kind: 'switch_mode', status: 'pending', rawInput: { plan: PLAN } }));
    t.addPermissionRequest(approval({ rawInput: { plan: PLAN } }), { requestId: 'r1' });
    const item = t.session(S)!.item(permissionItemId('r1'))!;
    assert.ok(item.kind === 'permission' && item.toolKind === 'switch_mode');
    assert.deepEqual(item.plan, { text: PLAN, source: 'input' });
    const v = itemView(item, 1);
    assert.ok(v.kind === 'permission');
    assert.deepEqual(v.planMode, { plan: PLAN, planTruncated: false });
    assert.equal(v.options.length, 4);
    assert.ok(v.options.every((o) => typeof o.explain === 'string' && o.explain.length > 20));
  });

  it('falls back to the last Markdown plan (codex: plan_update, then "Implement this plan?")', () => {
    const t = new Transcript();
    t.apply({ sessionId: S, kind: 'plan_update', plan: { type: 'markdown', planId: 'p', content: PLAN } });
    t.addPermissionRequest(
      approval({ kind: 'switch_mode', title: 'Implement this plan?' }, [
        { optionId: 'implement', name: 'Yes, implement this plan', kind: 'allow_once' },
        { optionId: 'revise', name: 'No, keep planning', kind: 'reject_once' },
      ]),
      { requestId: 'r2' },
    );
    const item = t.session(S)!.item(permissionItemId('r2'))!;
    assert.ok(item.kind === 'permission');
    assert.deepEqual(item.plan, { text: PLAN, source: 'plan' });
    // An ordinary permission has no plan section.
    t.apply(ev.tool('e1', { title: 'Edit', kind: 'edit' }));
    t.addPermissionRequest(
      { sessionId: S, title: 'Edit?', subject: { type: 'tool_call', toolCallId: 'e1', fields: {} }, options: CLAUDE_OPTIONS },
      { requestId: 'r3' },
    );
    const plain = itemView(t.session(S)!.item(permissionItemId('r3'))!, 3);
    assert.ok(plain.kind === 'permission' && plain.planMode === null && plain.options.every((o) => o.explain === null));
  });

  it('keeps an approved plan from the input as a Markdown plan, once, and only on approval', () => {
    const t = new Transcript();
    t.apply(ev.tool('exit1', { title: 'Approve Plan', kind: 'switch_mode', rawInput: { plan: PLAN } }));
    t.addPermissionRequest(approval({}), { requestId: 'r1' });
    const item = t.session(S)!.item(permissionItemId('r1'));
    const plans = new PlanStore();
    assert.equal(approvedPlanEvent(item, { outcome: 'selected', optionId: 'plan' }, S, []), undefined, 'rejected');
    assert.equal(approvedPlanEvent(item, { outcome: 'cancelled' }, S, []), undefined, 'cancelled');
    const e = approvedPlanEvent(item, { outcome: 'selected', optionId: 'bypassPermissions' }, S, plans.plans('a', S));
    assert.deepEqual(e, { sessionId: S, kind: 'plan_update', plan: { type: 'markdown', planId: APPROVED_PLAN_ID, content: PLAN } });
    plans.apply('a', e!);
    assert.equal(plans.plans('a', S).length, 1);
    assert.equal(approvedPlanEvent(item, { outcome: 'selected', optionId: 'default' }, S, plans.plans('a', S)), undefined, 'already kept');
  });

  it('shows costs with their meaningful digits', () => {
    assert.deepEqual([0.004, 0.0123, 0.5, 1.256, 0, 12, 0.0000004, 0.00999].map(costAmount), [
      '0.004',
      '0.012',
      '0.50',
      '1.26',
      '0.00',
      '12.00',
      '< 0.000001',
      '0.01',
    ]);
  });

  it("labels plan rows readably, keeping an agent's own short names", () => {
    assert.equal(planLabel('impl'), 'impl');
    assert.equal(planLabel('notes', 'Some heading'), 'notes');
    assert.equal(planLabel('codex-structured-plan'), 'Codex structured plan');
    assert.equal(planLabel('plan'), 'Plan');
    assert.equal(planLabel('plan-mode', '  Plan:  add a farewell '), 'Plan: add a farewell');
    assert.equal(planLabel('_custom'), '_custom');
  });
});

describe('prompt media', () => {
  const png = { name: 'a.png', mimeType: 'image/png', data: 'iVBORw0KGgo=' };
  it('sends images and audio only when the agent accepts them, within the size bound', () => {
    assert.deepEqual(mediaBlocks([png], { embeddedContext: false, image: true }), {
      blocks: [{ type: 'image', mimeType: 'image/png', data: png.data }],
      problems: [],
    });
    assert.match(mediaProblem(png, { embeddedContext: true })!, /does not accept images/);
    assert.match(mediaProblem({ ...png, mimeType: 'image/svg+xml' }, { embeddedContext: true, image: true })!, /only PNG, JPEG, GIF and WebP/);
    assert.match(
      mediaProblem({ ...png, data: 'A'.repeat(MAX_MEDIA_BASE64 + 4) }, { embeddedContext: true, image: true })!,
      /larger than 5.0 MB\. Make it smaller/,
    );
    assert.match(mediaProblem({ ...png, data: 'not base64!' }, { embeddedContext: true, image: true })!, /not valid base64/);
    assert.deepEqual(mediaBlocks([{ name: 'v.wav', mimeType: 'audio/wav', data: 'AAAA' }], { embeddedContext: false, audio: true }).blocks, [
      { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
    ]);
  });

  it("says why in the user's words (vscode.l10n from the conversation)", () => {
    assert.equal(
      mediaProblem(png, { embeddedContext: true }, german),
      'a.png wurde nicht gesendet: Dieser Agent nimmt in Prompts keine Bilder an. Beschreiben Sie den Inhalt in Worten oder verwenden Sie einen Agent, der das kann.',
    );
    const many = mediaBlocks(
      Array.from({ length: 10 }, () => png),
      { embeddedContext: false, image: true },
      german,
    );
    assert.deepEqual(many.problems, ['Mit einem Prompt gehen höchstens 8 Bilder oder Audioclips mit; 2 weitere wurden nicht gesendet.']);
    assert.match(mediaBlocks([{ ...png, name: '' }], { embeddedContext: false }, german).problems[0]!, /^Der Anhang wurde nicht gesendet/);
  });

  it('validates media in a submit from the webview', () => {
    assert.ok(parseFromWebview({ type: 'submit', sessionId: 's', text: '', attachments: [], media: [png] }));
    assert.equal(
      parseFromWebview({ type: 'submit', sessionId: 's', text: '', attachments: [], media: [{ ...png, data: 'A'.repeat(MAX_MEDIA_BASE64 + 1) }] }),
      undefined,
    );
    assert.ok(parseFromWebview({ type: 'pickMedia', sessionId: null }));
  });
});
