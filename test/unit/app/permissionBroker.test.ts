// The PermissionBroker without VS Code: a request is answered once, with the option picked;
// cancelling a session answers its pending requests `cancelled`; an "always allow" asks which rule
// to create, stores it (KeyValueStore) and lets it answer the next matching request — never through
// an option whose name contradicts its kind; at most MAX_PENDING_PER_AGENT requests wait per agent.
import * as assert from 'node:assert/strict';
import { MAX_PENDING_PER_AGENT, PermissionBroker, type ConsentUi, type KeyValueStore, type PermissionDecision } from '../../../src/app/permissionBroker';
import type { CancelToken } from '../../../src/protocol/api';
import type { PermissionOption, PermissionOutcome, PermissionRequest } from '../../../src/protocol/domain';
import type { OptionView, RuleOffer } from '../../../src/consent/permissionRules';
import { SessionStore, type PendingPermission } from '../../../src/state/sessionStore';

const noToken: CancelToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };
const OPTIONS: PermissionOption[] = [
  { optionId: 'once', name: 'Allow once', kind: 'allow_once' },
  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
];
const run = (command: string, sessionId = 's1', options = OPTIONS): PermissionRequest => ({
  sessionId,
  title: `Run ${command}`,
  subject: { type: 'command', command, cwd: '/work/project' },
  options,
});

class MemoryStore implements KeyValueStore {
  readonly values = new Map<string, unknown>();
  updates = 0;
  get(key: string): unknown {
    return this.values.get(key);
  }
  update(key: string, value: unknown): Promise<void> {
    this.updates++;
    this.values.set(key, value);
    return Promise.resolve();
  }
}

/** A consent UI whose notifications stay open (answers come from clicks) and that picks the narrow rule. */
class FakeConsentUi implements ConsentUi {
  readonly offers: RuleOffer[] = [];
  readonly created: string[] = [];
  readonly warnings: string[] = [];
  readonly late: string[] = [];
  ask(): Promise<OptionView | undefined> {
    return new Promise(() => undefined);
  }
  pickRule(offer: RuleOffer) {
    this.offers.push(offer);
    return Promise.resolve(offer.candidates[0] ?? null);
  }
  ruleCreated(description: string): void {
    this.created.push(description);
  }
  warn(message: string): void {
    this.warnings.push(message);
  }
  alreadyAnswered(entry: PendingPermission): void {
    this.late.push(entry.id);
  }
}

describe('PermissionBroker', () => {
  let store: SessionStore;
  let kv: MemoryStore;
  let ui: FakeConsentUi;
  let broker: PermissionBroker;
  let decisions: PermissionDecision[];

  beforeEach(() => {
    store = new SessionStore();
    for (const [agentId, sessionId] of [
      ['a', 's1'],
      ['a', 's2'],
      ['b', 's1'],
    ] as const)
      store.applyEvent(agentId, { sessionId, kind: 'session_info', title: 't' });
    kv = new MemoryStore();
    ui = new FakeConsentUi();
    broker = new PermissionBroker(kv, store, ui);
    decisions = [];
    broker.onDidDecide((d) => decisions.push(d));
  });
  afterEach(() => {
    broker.dispose();
    store.dispose();
  });

  it('answers a request once, with the option picked; a second answer is refused', async () => {
    // Answered inline only (clicks in the conversation): no notification.
    broker.dispose();
    broker = new PermissionBroker(kv, store, undefined);
    broker.onDidDecide((d) => decisions.push(d));
    let resolved = 0;
    const answer = broker.request('a', 'Agent A', run('npm test'), noToken).then((o) => (resolved++, o));
    const [p] = broker.pending;
    assert.ok(p);
    assert.equal(store.session('a', 's1')!.pendingPermissions.length, 1);
    assert.equal(await broker.choose(p.id, { index: 0 }), true);
    assert.equal(await broker.choose(p.id, { index: 2 }), false, 'already answered');
    assert.equal(await broker.respond(p.id, 'no'), false, 'already answered');
    assert.deepEqual<PermissionOutcome>(await answer, { outcome: 'selected', optionId: 'once' });
    assert.equal(resolved, 1);
    assert.equal(decisions.length, 1, 'decided once');
    assert.equal(store.session('a', 's1')!.pendingPermissions.length, 0);
  });

  it('cancelSession answers the pending requests of that session `cancelled`, and only those', async () => {
    const a1 = broker.request('a', 'Agent A', run('one'), noToken);
    const a2 = broker.request('a', 'Agent A', run('two'), noToken);
    void broker.request('a', 'Agent A', run('other', 's2'), noToken);
    broker.cancelSession('a', 's1');
    assert.deepEqual(await Promise.all([a1, a2]), [{ outcome: 'cancelled' }, { outcome: 'cancelled' }]);
    assert.deepEqual(
      broker.pending.map((p) => p.request.sessionId),
      ['s2'],
    );
    assert.equal(store.session('a', 's1')!.pendingPermissions.length, 0);
  });

  it('"always allow" asks which rule, stores it, and the rule answers the next matching request', async () => {
    const first = broker.request('a', 'Agent A', run('npm test'), noToken);
    const [p] = broker.pending;
    assert.equal(await broker.choose(p!.id, { index: 1 }), true);
    assert.equal(ui.offers.length, 1, 'the user picked the rule');
    assert.deepEqual<PermissionOutcome>(await first, { outcome: 'selected', optionId: 'always' });
    assert.equal(kv.updates, 1, 'the rule is stored');
    assert.equal(broker.rules.length, 1);
    assert.equal(ui.created.length, 1);

    const next = await broker.request('a', 'Agent A', run('npm test'), noToken);
    assert.deepEqual(next, { outcome: 'selected', optionId: 'once' }, 'answered by the rule, once');
    assert.ok(decisions[decisions.length - 1]!.auto?.byRule);
    assert.equal(broker.pending.length, 0);

    // Another command is not covered.
    void broker.request('a', 'Agent A', run('npm publish'), noToken);
    assert.equal(broker.pending.length, 1);
  });

  it('a rule never answers through an option whose name contradicts its kind; such an option never creates one', async () => {
    const first = broker.request('a', 'Agent A', run('npm test'), noToken);
    await broker.choose(broker.pending[0]!.id, { index: 1 });
    await first;
    const deceptive: PermissionOption[] = [
      { optionId: 'x', name: 'Reject', kind: 'allow_once' },
      { optionId: 'no', name: 'Reject', kind: 'reject_once' },
    ];
    void broker.request('a', 'Agent A', run('npm test', 's1', deceptive), noToken);
    assert.equal(broker.pending.length, 1, 'put to the user, not answered by the rule');

    const lasting: PermissionOption[] = [{ optionId: 'y', name: 'Allow once', kind: 'allow_always' }];
    const third = broker.request('a', 'Agent A', run('make', 's1', lasting), noToken);
    const id = broker.pending.find((p) => p.request.subject?.type === 'command' && p.request.subject.command === 'make')!.id;
    assert.equal(await broker.choose(id, { index: 0 }), true);
    assert.deepEqual(await third, { outcome: 'selected', optionId: 'y' });
    assert.equal(ui.offers.length, 1, 'no rule offered for the contradicting option');
    assert.equal(broker.rules.length, 1);
  });

  it(`keeps at most ${MAX_PENDING_PER_AGENT} requests waiting per agent; more are answered cancelled and said once`, async () => {
    for (let i = 0; i < MAX_PENDING_PER_AGENT; i++) void broker.request('a', 'Agent A', run(`cmd ${i}`), noToken);
    assert.equal(broker.pending.length, MAX_PENDING_PER_AGENT);
    assert.deepEqual(await broker.request('a', 'Agent A', run('one more'), noToken), { outcome: 'cancelled' });
    assert.deepEqual(await broker.request('a', 'Agent A', run('and another'), noToken), { outcome: 'cancelled' });
    assert.equal(ui.warnings.length, 1);
    assert.match(ui.warnings[0]!, /Agent A asked for more than 64 permissions at once/);
    void broker.request('b', 'Agent B', run('other agent'), noToken);
    assert.equal(broker.pending.length, MAX_PENDING_PER_AGENT + 1, 'another agent is not held back');
  });
});
