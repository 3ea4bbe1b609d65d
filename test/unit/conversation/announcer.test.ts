// The conversation's live region speaks once per turn, not once per chunk: the agent's last message
// when a running turn stops, "waiting for you" when the agent needs an answer, nothing while text
// streams or when a session is first shown.
import * as assert from 'node:assert/strict';
import { announcement } from '../../../media/src/announcer';

describe('Conversation announcements', () => {
  it('says the finished message once, when the turn stops running', () => {
    assert.equal(announcement('running', 'running', 'Hel'), undefined, 'streaming: silent');
    assert.equal(announcement('running', 'idle', '  Done:\n  added farewell()  '), 'The agent finished: Done: added farewell()');
    assert.equal(announcement('running', 'idle', ''), 'The agent finished.');
    assert.equal(announcement('idle', 'idle', 'x'), undefined);
    assert.equal(announcement(undefined, 'idle', 'x'), undefined, 'a session first shown is not news');
  });
  it('says when the agent waits for the user; long messages are shortened', () => {
    assert.equal(announcement('running', 'requires_action', 'x'), 'The agent is waiting for you.');
    assert.equal(announcement('running', 'idle', 'y'.repeat(1000))!.length, 'The agent finished: '.length + 300);
  });
});
