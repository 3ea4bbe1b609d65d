// Steering: input sent into a running turn through the `_session/steering` extension request
// (`{sessionId, prompt, _meta?}` → `{outcome, reason?}`), which codex-acp and claude-agent-acp
// serve on v1 and v2 and advertise as `_meta.steering` of their initialize answer. No schema
// covers it yet (the standard `session/inject` is an open proposal), so the advertisement and the
// answer are read leniently, and an answer we do not know is kept whole (`unknown`).
import type { AdapterCall } from '../adapter';
import type { SteerOutcome } from '../api';
import type { ContentBlock, JsonObject, SessionEvent } from '../domain';
import { encodeContentBlock } from './content';
import { isObject } from './isObject';
import { EXTENSION_METHODS } from './methods';

/**
 * Whether the initialize answer advertises steering: `_meta.steering` as `true` or an object whose
 * `supported` is not `false` (both adapters send `{supported: true}`).
 */
export function steeringAdvertised(initializeResult: unknown): boolean {
  const meta = isObject(initializeResult) ? initializeResult._meta : undefined;
  const steering = isObject(meta) ? meta.steering : undefined;
  if (steering === true) return true;
  return isObject(steering) && steering.supported !== false;
}

/**
 * The request. `idleBehavior: promptRequired` asks the agent not to start a turn of its own when
 * the turn ended meanwhile: the client keeps the message and sends it as a prompt, so the turn it
 * starts is one the client knows (its prompt, its state, its end).
 */
export function steeringRequest(sessionId: string, blocks: readonly ContentBlock[]): { method: string; params: JsonObject } {
  return {
    method: EXTENSION_METHODS.sessionSteering,
    params: { sessionId, prompt: blocks.map(encodeContentBlock), _meta: { steering: { idleBehavior: 'promptRequired' } } },
  };
}

/** The answer's outcome, typed; anything else is `unknown` with the answer kept. */
export function decodeSteerOutcome(raw: unknown): SteerOutcome {
  const outcome = isObject(raw) ? raw.outcome : undefined;
  const reason = isObject(raw) ? (text(raw.reason) ?? text(raw.message)) : undefined;
  switch (outcome) {
    case 'injected':
      return { kind: 'injected' };
    case 'startedNewTurn':
    case 'newTurn':
      return { kind: 'newTurn' };
    case 'promptRequired':
      return reason === undefined ? { kind: 'promptRequired' } : { kind: 'promptRequired', reason };
    case 'failed':
      return reason === undefined ? { kind: 'failed' } : { kind: 'failed', reason };
    default:
      return { kind: 'unknown', raw };
  }
}

/** A reason as the agent gave it, bounded (it is shown beside the queued message). */
function text(v: unknown): string | undefined {
  if (typeof v !== 'string' || !v.trim()) return undefined;
  return v.length > 300 ? `${v.slice(0, 300)}…` : v;
}

/** Message ids for the steered input, from the version's adapter (v1 synthesizes them per turn). */
export interface SteerIds {
  /** A user message inside the running turn. */
  steered(): string;
  /** The first message of a turn the agent started with it. */
  newTurn(): string;
}

/** The steering call; on `injected` and `newTurn` the message is reported as the user's. */
export function steerCall(sessionId: string, blocks: readonly ContentBlock[], ids: SteerIds): AdapterCall<SteerOutcome> {
  const { method, params } = steeringRequest(sessionId, blocks);
  return {
    method,
    params,
    eventsBefore: [],
    decode: (raw) => {
      const value = decodeSteerOutcome(raw);
      const content = [...blocks];
      const events: SessionEvent[] = [];
      if (value.kind === 'injected') events.push({ sessionId, kind: 'message', role: 'user', messageId: ids.steered(), content, steered: true });
      else if (value.kind === 'newTurn') events.push({ sessionId, kind: 'message', role: 'user', messageId: ids.newTurn(), content });
      return { value, events };
    },
  };
}
