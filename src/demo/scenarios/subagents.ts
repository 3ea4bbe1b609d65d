// `/subagents` (v2): the session spawns two child sessions. On the parent: an items plan
// `coordination`, `subagent_update` for each child (title, description, capabilities, state).
// Child 1 ("Researcher", no cancel) runs a plan `research`, says what it does, sends an
// inter-session message to child 2 (`session_message` on both: the sender's outgoing view, the
// recipient's incoming view) and ends idle. Child 2 ("Test watcher", cancel offered) runs a plan
// `watch` and keeps running: the parent's turn ends with `background: [{type:"subagent"}]`.
// `session/cancel` on child 2 ends it (plan step cancelled, idle `cancelled`, mirrored on the
// parent) and empties the parent's background snapshot.

import type { Turn } from '../turn';
import { onCancel, removeBackground, setBackground } from './backgroundWork';
import { ItemPlan, type Scenario } from './scenario';

export const SUBAGENT_TITLES = ['Researcher', 'Test watcher'] as const;
export const SESSION_MESSAGE_TEXT = 'Found 3 entry points: extension.ts, agent.ts and server.ts. Please watch their tests.';

const text = (t: string) => ({ type: 'text', text: t });
const entries = (list: [string, string][]) => list.map(([content, status]) => ({ content, priority: 'medium', status }));

export function childIds(parentId: string): [string, string] {
  return [`${parentId}:subagent:1`, `${parentId}:subagent:2`];
}

async function researcher(turn: Turn, parent: string, child: string, watcher: string): Promise<void> {
  const send = (u: object) => turn.sendRaw(child, u);
  send({ sessionUpdate: 'state_update', state: 'running' });
  const plan = [
    ['Read the sources', 'completed'],
    ['Find the entry points', 'in_progress'],
  ] as [string, string][];
  send({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'research', entries: entries(plan) } });
  send({ sessionUpdate: 'agent_message_chunk', messageId: 'msg_r1', content: text('Reading the sources to find the entry points…') });
  await turn.pace();
  // One message, two views: outgoing in the sender's transcript, incoming in the recipient's.
  send({
    sessionUpdate: 'session_message',
    messageId: 'smsg_out_1',
    senderSessionId: child,
    recipientSessionId: watcher,
    recipientMessageId: 'smsg_in_1',
    content: [text(SESSION_MESSAGE_TEXT)],
  });
  turn.sendRaw(watcher, {
    sessionUpdate: 'session_message',
    messageId: 'smsg_in_1',
    senderSessionId: child,
    recipientSessionId: watcher,
    senderMessageId: 'smsg_out_1',
    content: [text(SESSION_MESSAGE_TEXT)],
  });
  await turn.pace();
  plan[1]![1] = 'completed';
  send({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'research', entries: entries(plan) } });
  send({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'end_turn' });
  turn.sendRaw(parent, { sessionUpdate: 'subagent_update', sessionId: child, state: { state: 'idle', stopReason: 'end_turn' } });
}

function watcherStarts(turn: Turn, parent: string, watcher: string): void {
  const send = (u: object) => turn.sendRaw(watcher, u);
  const plan = [
    ['Start the test runner', 'completed'],
    ['Report failures as they come', 'in_progress'],
  ] as [string, string][];
  send({ sessionUpdate: 'state_update', state: 'running' });
  send({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'watch', entries: entries(plan) } });
  send({ sessionUpdate: 'agent_message_chunk', messageId: 'msg_w1', content: text('Watching the tests; I keep running after this turn.') });
  onCancel('session', watcher, '', () => {
    plan[1]![1] = 'cancelled';
    send({ sessionUpdate: 'plan_update', plan: { type: 'items', planId: 'watch', entries: entries(plan) } });
    send({ sessionUpdate: 'state_update', state: 'idle', stopReason: 'cancelled' });
    turn.sendRaw(parent, { sessionUpdate: 'subagent_update', sessionId: watcher, state: { state: 'idle', stopReason: 'cancelled' } });
    const background = removeBackground(parent, (i) => i.sessionId === watcher);
    turn.sendRaw(parent, { sessionUpdate: 'state_update', state: turn.session.turn ? 'running' : 'idle', background });
  });
}

export const subagentsScenario: Scenario = {
  name: 'subagents',
  description: 'Spawn two subagents with their own plans, one running on in the background, and a message between them (v2)',
  async run(turn) {
    if (turn.version === 1) {
      turn.say('subagents: this scenario needs ACP v2.');
      return;
    }
    const parent = turn.session.sessionId;
    const [research, watcher] = childIds(parent);
    const plan = new ItemPlan(turn, 'coordination', [
      ['Research the code (subagent)', 'high'],
      ['Watch the tests (background subagent)', 'medium'],
      ['Summarize', 'low'],
    ]);
    plan.set([0, 'in_progress'], [1, 'in_progress']);
    turn.sendRaw(parent, {
      sessionUpdate: 'subagent_update',
      sessionId: research,
      title: SUBAGENT_TITLES[0],
      description: 'Reads the code and reports what it finds',
      capabilities: {},
      state: { state: 'running' },
    });
    turn.sendRaw(parent, {
      sessionUpdate: 'subagent_update',
      sessionId: watcher,
      title: SUBAGENT_TITLES[1],
      description: 'Re-runs the tests while you work',
      capabilities: { cancel: {} },
      state: { state: 'running' },
    });
    watcherStarts(turn, parent, watcher);
    await turn.pace();
    await researcher(turn, parent, research, watcher);
    setBackground(parent, [{ type: 'subagent', sessionId: watcher }]);
    plan.set([0, 'completed'], [2, 'completed']);
    turn.say(
      `The ${SUBAGENT_TITLES[0].toLowerCase()} finished; the ${SUBAGENT_TITLES[1].toLowerCase()} runs on in the background (cancel it from its row in the Plans view).`,
    );
  },
};
