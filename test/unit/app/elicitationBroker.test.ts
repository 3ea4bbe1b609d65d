// The ElicitationBroker without VS Code: a session-scoped form shown as a card and counted as
// waiting, answered only by the user (checked first); a link opened only on accept, then completed
// by the agent; cancellation by the agent, an agent stop, and what cannot be shown.
import * as assert from 'node:assert/strict';
import { ElicitationBroker, MAX_PENDING_ELICITATIONS_PER_AGENT, type ElicitationUi } from '../../../src/app/elicitationBroker';
import type { CancelToken } from '../../../src/protocol/api';
import { english } from '../../../src/common/l10n';
import { elicitationProblemWords } from '../../../src/ui/elicitationWords';
import { decodeElicitation } from '../../../src/protocol/common/elicitation';
import { SessionStore, sessionKey } from '../../../src/state/sessionStore';
import { elicitationItemId, Transcript, type ElicitationItem } from '../../../src/state/transcript';

function token(): CancelToken & { cancel(): void } {
  const ls: (() => void)[] = [];
  const t = {
    isCancellationRequested: false,
    onCancellationRequested: (l: () => void) => {
      ls.push(l);
      return { dispose: () => undefined };
    },
    cancel: () => {
      t.isCancellationRequested = true;
      for (const l of ls) l();
    },
  };
  return t;
}

describe('ElicitationBroker', () => {
  let store: SessionStore;
  let transcript: Transcript;
  let opened: string[];
  let broker: ElicitationBroker;
  const key = sessionKey('agent', 's1');
  const ui: ElicitationUi = {
    askOutsideSession: () => Promise.resolve(undefined),
    openUrl: (u) => {
      opened.push(u);
      return Promise.resolve(true);
    },
    warn: () => undefined,
    problemWords: (p) => elicitationProblemWords(p, english),
  };
  const card = (): ElicitationItem => {
    const s = transcript.session(key)!;
    const items = s.slice(s.firstIndex).filter((i): i is ElicitationItem => i.kind === 'elicitation');
    return items[items.length - 1]!;
  };

  beforeEach(() => {
    store = new SessionStore();
    store.applyEvent('agent', { sessionId: 's1', kind: 'session_info', title: 't' });
    transcript = new Transcript();
    opened = [];
    broker = new ElicitationBroker(store, transcript, ui);
  });
  afterEach(() => broker.dispose());

  it('answers a form only with what the user submitted, after checking it', async () => {
    const req = decodeElicitation({
      sessionId: 's1',
      mode: 'form',
      message: 'Name?',
      requestedSchema: { type: 'object', required: ['n'], properties: { n: { type: 'string', title: 'Name' }, k: { type: 'integer', default: 2 } } },
    });
    const answer = broker.request('agent', 'Agent', req, token());
    assert.equal(store.session('agent', 's1')?.pendingElicitations, 1);
    const id = card().requestId;
    assert.equal(card().itemId, elicitationItemId(id));
    assert.deepEqual(await broker.answer(id, 'accept', { n: '', k: '2' }), { errors: { n: 'Required.' } });
    assert.equal(card().state, 'pending');
    assert.equal(card().note, 'Not sent: Required.');
    assert.deepEqual(await broker.answer(id, 'accept', { n: 'Ada', k: '2' }), {});
    assert.deepEqual(await answer, { action: 'accept', content: { n: 'Ada', k: 2 } });
    assert.equal(card().state, 'accepted');
    assert.deepEqual(card().answer, ['Name: Ada', 'k: 2']);
    assert.equal(store.session('agent', 's1')?.pendingElicitations, 0);
  });

  it('keeps at most MAX_PENDING_ELICITATIONS_PER_AGENT waiting per agent; more are answered cancel at once', async () => {
    const form = () =>
      decodeElicitation({ sessionId: 's1', mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });
    for (let i = 0; i < MAX_PENDING_ELICITATIONS_PER_AGENT; i++) void broker.request('agent', 'Agent', form(), token());
    assert.deepEqual(await broker.request('agent', 'Agent', form(), token()), { action: 'cancel' });
    assert.equal(broker.pending.length, MAX_PENDING_ELICITATIONS_PER_AGENT);
    assert.equal(store.session('agent', 's1')?.pendingElicitations, MAX_PENDING_ELICITATIONS_PER_AGENT);
  });

  it('opens a link only on accept; elicitation/complete marks it done', async () => {
    const req = decodeElicitation({ sessionId: 's1', mode: 'url', elicitationId: 'e9', url: 'https://auth.example.org/x', message: 'Sign in' });
    const answer = broker.request('agent', 'Agent', req, token());
    assert.equal(card().host, 'auth.example.org');
    assert.deepEqual(opened, []);
    await broker.answer(card().requestId, 'accept');
    assert.deepEqual(opened, ['https://auth.example.org/x']);
    assert.deepEqual(await answer, { action: 'accept' });
    broker.complete('agent', 'e9');
    assert.equal(card().state, 'completed');
  });

  it('declines and cancels; the agent withdrawing or stopping cancels, and the card says so', async () => {
    const form = () => decodeElicitation({ sessionId: 's1', mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: {} } });
    const a1 = broker.request('agent', 'Agent', form(), token());
    await broker.answer(card().requestId, 'decline');
    assert.deepEqual(await a1, { action: 'decline' });
    const t = token();
    const a2 = broker.request('agent', 'Agent', form(), t);
    t.cancel();
    assert.deepEqual(await a2, { action: 'cancel' });
    assert.match(card().note ?? '', /withdrew/);
    const a3 = broker.request('agent', 'Agent', form(), token());
    broker.cancelAgent('agent', 'Cancelled: the agent stopped before this was answered.');
    assert.deepEqual(await a3, { action: 'cancel' });
    assert.equal(card().note, 'Cancelled: the agent stopped before this was answered.');
    assert.equal(store.session('agent', 's1')?.pendingElicitations, 0);
  });

  it('never shows what it cannot: a form past the bounds or an unknown mode is answered "cancel" with the reason', async () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`f${i}`, { type: 'string' }]));
    assert.deepEqual(
      await broker.request(
        'agent',
        'Agent',
        decodeElicitation({ sessionId: 's1', mode: 'form', message: 'm', requestedSchema: { type: 'object', properties: many } }),
        token(),
      ),
      { action: 'cancel' },
    );
    assert.equal(card().state, 'cancelled');
    assert.match(card().note ?? '', /40 fields \(the limit is 32\)/);
    assert.deepEqual(
      await broker.request(
        'agent',
        'Agent',
        decodeElicitation({ sessionId: 's1', mode: 'url', elicitationId: 'e', url: 'javascript:alert(1)', message: 'm' }),
        token(),
      ),
      { action: 'cancel' },
    );
    assert.match(card().note ?? '', /only http and https/);
    assert.deepEqual(await broker.request('agent', 'Agent', decodeElicitation({ sessionId: 's1', mode: 'voice', message: 'Say it' }), token()), {
      action: 'cancel',
    });
    assert.equal(card().state, 'cancelled');
    assert.ok(card().raw, 'a small unknown request is kept raw');
    // A request refused for its size is not kept whole in the transcript either.
    const huge = { type: 'object', properties: { f: { type: 'string', description: 'x'.repeat(2 * 1024 * 1024) } } };
    assert.deepEqual(
      await broker.request('agent', 'Agent', decodeElicitation({ sessionId: 's1', mode: 'form', message: 'm', requestedSchema: huge }), token()),
      { action: 'cancel' },
    );
    assert.equal(card().raw, null);
    assert.deepEqual(opened, []);
  });
});
