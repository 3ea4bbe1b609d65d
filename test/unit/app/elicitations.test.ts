// The ElicitationBroker as the extension holds it (src/app/elicitations.ts): loaded the first time
// an agent asks for input; before then an answer, `elicitation/complete` and the cancellations
// find nothing to act on (and load nothing); afterwards each reaches the broker.
import * as assert from 'node:assert/strict';
import { Elicitations } from '../../../src/app/elicitations';
import type { ElicitationUi } from '../../../src/app/elicitationBroker';
import type { CancelToken } from '../../../src/protocol/api';
import { english } from '../../../src/common/l10n';
import { elicitationProblemWords } from '../../../src/ui/elicitationWords';
import { decodeElicitation } from '../../../src/protocol/common/elicitation';
import { SessionStore, sessionKey } from '../../../src/state/sessionStore';
import { Transcript, type ElicitationItem } from '../../../src/state/transcript';

const never: CancelToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };
const ui: ElicitationUi = {
  askOutsideSession: () => Promise.resolve(undefined),
  openUrl: () => Promise.resolve(true),
  warn: () => undefined,
  problemWords: (p) => elicitationProblemWords(p, english),
};
const form = () =>
  decodeElicitation({ sessionId: 's1', mode: 'form', message: 'Name?', requestedSchema: { type: 'object', properties: { n: { type: 'string' } } } });

describe('Elicitations (the broker loaded on first use)', () => {
  let store: SessionStore;
  let transcript: Transcript;
  let elicitations: Elicitations;
  const cards = (): ElicitationItem[] => {
    const s = transcript.session(sessionKey('agent', 's1'))!;
    return s.slice(s.firstIndex).filter((i): i is ElicitationItem => i.kind === 'elicitation');
  };

  beforeEach(() => {
    store = new SessionStore();
    store.applyEvent('agent', { sessionId: 's1', kind: 'session_info', title: 't' });
    transcript = new Transcript();
    elicitations = new Elicitations(store, transcript, ui);
  });
  afterEach(() => elicitations.dispose());

  it('acts on nothing and loads nothing before the first request', async () => {
    assert.deepEqual(await elicitations.answer('elic-x', 'accept', { n: 'Ada' }), {});
    elicitations.complete('agent', 'e1');
    elicitations.cancelAgent('agent', 'stopped');
    elicitations.cancelSession('agent', 's1', 'ended');
    assert.equal(elicitations.loaded, false);
  });

  it('passes requests, answers and cancellations to the broker once loaded, and cancels what waits when disposed', async () => {
    const first = elicitations.request('agent', 'Agent', form(), never);
    assert.equal(elicitations.loaded, true);
    assert.equal(store.session('agent', 's1')?.pendingElicitations, 1);
    assert.deepEqual(await elicitations.answer(cards()[0]!.requestId, 'accept', { n: 'Ada' }), {});
    assert.deepEqual(await first, { action: 'accept', content: { n: 'Ada' } });

    const second = elicitations.request('agent', 'Agent', form(), never);
    elicitations.cancelSession('agent', 's1', 'Cancelled: the session ended before this was answered.');
    assert.deepEqual(await second, { action: 'cancel' });
    assert.equal(cards()[1]!.note, 'Cancelled: the session ended before this was answered.');

    const third = elicitations.request('agent', 'Agent', form(), never);
    elicitations.dispose();
    assert.deepEqual(await third, { action: 'cancel' });
    assert.equal(cards()[2]!.note, 'Cancelled: ACP Plans was closed.');
  });
});
