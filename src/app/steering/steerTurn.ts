// Steer or queue: a message the user sends while a turn runs goes into that turn when the agent
// offers steering (`_session/steering`), else it waits in the queue for the turn's end. What the
// agent did with it decides where it shows: taken into the turn (the connection reports it as a
// steered user message), the start of a turn the agent began with it, or the queue with the
// reason beside it (failed, the turn had ended, an answer we do not know). Free of `vscode`.
import type { ContentBlock } from '../../protocol/domain';
import type { QueueNote } from '../../state/queueNote';
import type { SessionKey, SessionStore } from '../../state/sessionStore';
import type { Agents } from '../agentPorts';

/** `steered`: into the running turn; `newTurn`: the agent started a turn with it; else as a prompt. */
export type SteerResult = 'steered' | 'newTurn' | 'sent' | 'queued';

export interface SteerDeps {
  readonly agents: Pick<Agents, 'get'>;
  readonly store: Pick<SessionStore, 'session' | 'enqueue'>;
}

/** Whether Steer is on offer for the session: a turn runs and its agent advertised steering. */
export function canSteer(deps: SteerDeps, ref: SessionKey): boolean {
  const sup = deps.agents.get(ref.agentId);
  const s = deps.store.session(ref.agentId, ref.sessionId);
  return !!s && s.live && s.turnState !== 'idle' && sup?.status === 'running' && sup.connection?.steering === true;
}

/**
 * Sends `blocks` into the running turn when steering is on offer, else goes the way of `prompt`
 * (sent when idle, queued while a turn runs). A steer the agent did not take is queued, with why.
 */
export async function steerTurn(
  deps: SteerDeps,
  prompt: (ref: SessionKey, blocks: readonly ContentBlock[]) => 'sent' | 'queued',
  ref: SessionKey,
  blocks: readonly ContentBlock[],
): Promise<SteerResult> {
  const conn = deps.agents.get(ref.agentId)?.connection;
  if (!conn || !canSteer(deps, ref)) return prompt(ref, blocks);
  const outcome = await conn.steer(ref.sessionId, blocks);
  switch (outcome.kind) {
    case 'injected':
      return 'steered';
    case 'newTurn':
      return 'newTurn';
    case 'failed':
      return queue(deps, ref, blocks, outcome.reason === undefined ? { code: 'steerFailed' } : { code: 'steerFailed', reason: outcome.reason });
    case 'promptRequired':
      return queue(deps, ref, blocks, { code: 'steerPromptRequired' });
    case 'unknown':
      return queue(deps, ref, blocks, { code: 'steerUnknown' });
    default:
      return outcome satisfies never;
  }
}

/** Into the queue with its note; sent when the turn ends (at once when it already has). */
function queue(deps: SteerDeps, ref: SessionKey, blocks: readonly ContentBlock[], note: QueueNote): 'queued' {
  if (!deps.store.enqueue(ref.agentId, ref.sessionId, blocks, note)) throw new Error('That session is no longer open.');
  return 'queued';
}
