// `_session/steering` (the extension codex-acp and claude-agent-acp serve; advertised as
// `_meta.steering: {supported: true}` in the initialize answer): input into the running turn.
// A running turn takes it (`{outcome: "injected"}`), records it as the user's message (not echoed:
// the client shows what it steered) and answers it within the same turn, right after the reply:
// an agent message quoting it. `/steer refuse` makes the turn refuse (`{outcome: "failed",
// reason}`). With no turn running: `promptRequired` when the client asked for it
// (`_meta.steering.idleBehavior`), else `failed` (this agent never starts a turn of its own).

import { ErrorCodes, RpcError } from './jsonrpc/peer';
import type { Block } from './model';
import { requireSession, type Handler, type Params } from './connection';
import type { Turn } from './turn';

export type SteerAnswer = { outcome: 'injected' } | { outcome: 'failed'; reason: string };

/** The turn's part: refuse (a reason), or take it and answer it in the turn. */
export function steerTurn(turn: Turn, blocks: Block[], refusal: string | undefined): SteerAnswer {
  if (refusal !== undefined) return { outcome: 'failed', reason: refusal };
  turn.session.apply({ kind: 'message', role: 'user', messageId: turn.id('msg'), blocks });
  const text = blocks.map((b) => (b.type === 'text' && typeof b.text === 'string' ? b.text : `[${b.type}]`)).join(' ');
  // After the reply is written: the acknowledgement follows the answer on the wire.
  setImmediate(() => {
    if (!turn.isCancelled) turn.say(`Steering noted: "${text}". Taking that into account in this turn.`);
  });
  return { outcome: 'injected' };
}

function steerBlocks(p: Params): Block[] {
  const prompt = p.prompt;
  if (!Array.isArray(prompt) || prompt.length === 0) throw new RpcError(ErrorCodes.invalidParams, 'steering params require a non-empty "prompt" array');
  for (const b of prompt)
    if (typeof b !== 'object' || b === null || typeof (b as { type?: unknown }).type !== 'string')
      throw new RpcError(ErrorCodes.invalidParams, 'every prompt entry must be a content block');
  return prompt as Block[];
}

function idleBehavior(p: Params): unknown {
  const meta = p._meta;
  const steering = typeof meta === 'object' && meta !== null ? (meta as { steering?: unknown }).steering : undefined;
  return typeof steering === 'object' && steering !== null ? (steering as { idleBehavior?: unknown }).idleBehavior : undefined;
}

export const sessionSteering: Handler = (c, p, reply) => {
  const session = requireSession(c, p);
  const blocks = steerBlocks(p);
  const turn = session.turn;
  if (!turn) {
    reply.ok(
      idleBehavior(p) === 'promptRequired' ? { outcome: 'promptRequired', reason: 'noRunningTurn' } : { outcome: 'failed', reason: 'no turn is running' },
    );
    return;
  }
  c.log(`steering into the turn in ${session.sessionId}`);
  reply.ok(turn.steer(blocks));
};
