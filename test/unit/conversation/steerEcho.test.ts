// An agent's own copy of a steered message (codex-acp on v2 sends the landed steer again as
// `user_message_chunk`s under its own id) is folded into the steered message shown: the
// conversation shows it once. Anything else under a user id is shown as before.
import { strict as assert } from 'node:assert';
import type { ContentBlock, SessionEvent } from '../../../src/protocol/domain';
import { messageText, Transcript, type MessageItem } from '../../../src/state/transcript';
import { ev, S, text } from './builders';

const STEER = 'Also mention the word PELICAN in your answer.';
const steered = (messageId: string, content: ContentBlock[]): SessionEvent => ({
  sessionId: S,
  kind: 'message',
  role: 'user',
  messageId,
  content,
  steered: true,
});
const userMessages = (t: Transcript) =>
  t
    .session(S)!
    .slice(0)
    .filter((i): i is MessageItem => i.kind === 'message' && i.role === 'user')
    .map((m) => `${m.steered ? 'steered:' : ''}${messageText(m)}`);

/** A running turn with its prompt (echoed by the agent) and the steer our client sent into it. */
function turnWithSteer(t: Transcript, content: ContentBlock[] = [text(STEER)]): void {
  t.apply(ev.state('running'));
  t.apply(ev.chunk('p1', 'Say hello.', 'user'));
  t.apply(steered('steer-1', content));
}

describe('Transcript: echoes of steered input', () => {
  it('folds the agent copy of a steer (the codex-acp v2 shape) into the steered message: shown once', () => {
    const t = new Transcript();
    const changes: string[] = [];
    t.onDidChange((c) => changes.push('itemId' in c ? `${c.kind} ${c.itemId}` : c.kind));
    turnWithSteer(t);
    const before = changes.length;
    t.apply(ev.chunk('codex-id', STEER, 'user'));
    t.apply(ev.chunk('a1', 'Done, with PELICAN.'));
    t.apply(ev.state('idle', 'end_turn'));
    assert.deepEqual(userMessages(t), ['Say hello.', `steered:${STEER}`]);
    assert.ok(!changes.slice(before).some((c) => c.includes('codex-id')), changes.join('\n'));
  });

  it('folds a multi-block steer sent as one chunk per block, and a whole user message with the same content', () => {
    const t = new Transcript();
    const blocks = [text('First.'), { type: 'resource_link', uri: 'file:///a.ts', name: 'a.ts' } as ContentBlock];
    turnWithSteer(t, blocks);
    t.apply({ sessionId: S, kind: 'message_chunk', role: 'user', messageId: 'e1', content: blocks[0]! });
    t.apply({ sessionId: S, kind: 'message_chunk', role: 'user', messageId: 'e1', content: blocks[1]! });
    t.apply(steered('steer-2', [text(STEER)]));
    t.apply(ev.message('e2', [text(STEER)], 'user'));
    assert.deepEqual(userMessages(t), ['Say hello.', 'steered:First.', `steered:${STEER}`]);
  });

  it('folds one copy per steer; a second one is shown', () => {
    const t = new Transcript();
    turnWithSteer(t);
    t.apply(ev.chunk('e1', STEER, 'user'));
    t.apply(ev.chunk('e2', STEER, 'user'));
    assert.deepEqual(userMessages(t), ['Say hello.', `steered:${STEER}`, STEER]);
  });

  it('shows a user message that only starts like the steer, whole and in order', () => {
    const t = new Transcript();
    const blocks = [text('First.'), text('Second.')];
    turnWithSteer(t, blocks);
    t.apply(ev.chunk('e1', 'First.', 'user'));
    t.apply(ev.chunk('e1', 'Something else.', 'user'));
    assert.deepEqual(userMessages(t), ['Say hello.', 'steered:First.Second.', 'First.Something else.']);
  });

  it('does not fold across turns: a steer of an ended turn is not waited for', () => {
    const t = new Transcript();
    turnWithSteer(t);
    t.apply(ev.state('idle', 'end_turn'));
    t.apply(ev.state('running'));
    t.apply(ev.chunk('p2', STEER, 'user'));
    assert.deepEqual(userMessages(t), ['Say hello.', `steered:${STEER}`, STEER]);
  });

  it('leaves other user text, and the chunks of a message already shown, alone', () => {
    const t = new Transcript();
    turnWithSteer(t);
    t.apply(ev.chunk('p1', STEER, 'user'));
    t.apply(ev.chunk('other', 'Unrelated.', 'user'));
    assert.deepEqual(userMessages(t), ['Say hello.' + STEER, `steered:${STEER}`, 'Unrelated.']);
  });
});
