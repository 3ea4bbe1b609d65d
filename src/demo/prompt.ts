// `session/prompt`: runs one scenario as a turn.
// v2: answers `{}` at once, then `user_message` (agent-assigned messageId), `state_update running`,
//     the scenario, and `state_update idle` with stopReason `end_turn` or `cancelled`.
// v1: the scenario, then the answer `{stopReason}`.
// On cancel, tool calls of the turn that have not ended are marked cancelled (v1: failed) first;
// after the idle update (v1: the answer) nothing more is sent for the turn.

import { ErrorCodes, RpcError, type Reply } from './jsonrpc/peer';
import type { Block, StopReason } from './model';
import { acknowledgeImages } from './media';
import { pickScenario } from './scenarios/index';
import { Turn, TurnCancelled } from './turn';
import { invalid, requireSession, type Connection, type Params } from './connection';

function promptBlocks(params: Params): Block[] {
  const prompt = params.prompt;
  if (!Array.isArray(prompt)) throw invalid('"prompt" must be an array of content blocks');
  for (const block of prompt) {
    if (typeof block !== 'object' || block === null || typeof (block as { type?: unknown }).type !== 'string') {
      throw invalid('every prompt entry must be a content block');
    }
  }
  return prompt as Block[];
}

export async function prompt(c: Connection, params: Params, reply: Reply): Promise<void> {
  const session = requireSession(c, params);
  const blocks = promptBlocks(params);
  if (session.turn) throw new RpcError(ErrorCodes.invalidRequest, 'A turn is already running in this session');
  const turn = new Turn(session, {
    wire: c.wire,
    services: c.negotiated.services,
    delayMs: c.config.delayMs,
    notify: (method, p) => c.peer.notify(method, p),
    request: (method, p) => c.peer.request(method, p),
    log: (text) => c.log(text),
    exit: (code) => c.exit(code),
  });
  session.turn = turn;
  if (c.wire.version === 2) reply.ok({});
  const { scenario, args } = pickScenario(blocks);
  c.log(`turn in ${session.sessionId}: ${scenario.name ? `/${scenario.name}` : 'default turn'}`);

  let stopReason: StopReason = 'end_turn';
  try {
    turn.userMessage(blocks);
    turn.emit({ kind: 'state', state: 'running' });
    acknowledgeImages(turn, blocks);
    await scenario.run(turn, args, blocks);
  } catch (err) {
    if (err instanceof TurnCancelled || turn.isCancelled) {
      stopReason = 'cancelled';
    } else {
      c.log(`scenario failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      turn.say(`The Demo Agent hit an error: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (stopReason === 'cancelled') turn.cancelOpenTools();
  turn.emit({ kind: 'state', state: 'idle', stopReason });
  turn.finish();
  session.turn = undefined;
  if (!turn.isSilenced) c.store.save(session);
  if (c.wire.version === 1) reply.ok({ stopReason });
}
