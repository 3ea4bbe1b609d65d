// Hand-written decoding of the commonest v1 `session/update` shapes: text message chunks, plans and
// (opted-in) items plan updates.
// An agent sends these by the thousand per turn; the zod schemas allocate a copy of every object
// and field they check (most of the extension host's garbage while five agents streamed plans).
//
// The contract is v2/fastPath.ts's: for an update it handles, the result is exactly what the zod
// schema in updates.ts produces; whenever anything is not the plain expected shape it returns
// undefined and the schema decides. Unit tests compare both on every shape.
import { metaOf, withMeta } from '../common/zod';
import { fastPlanUpdate, planEntries, textBlock } from '../common/fastDecode';
import { V1_PLAN_ID, type ChunkRole, type V1Decoded } from './updates';

type Wire = Record<string, unknown>;

const CHUNK_ROLES: Readonly<Record<string, ChunkRole>> = {
  user_message_chunk: 'user',
  agent_message_chunk: 'agent',
  agent_thought_chunk: 'thought',
};

/** The decoding of `update` (tagged `tag`), or undefined to let the zod schema decode it. */
export function fastV1Update(tag: string, update: Wire): V1Decoded | undefined {
  switch (tag) {
    case 'agent_message_chunk':
    case 'agent_thought_chunk':
    case 'user_message_chunk':
      return chunk(CHUNK_ROLES[tag], update);
    case 'plan': {
      const entries = planEntries(update.entries);
      return entries && { t: 'event', body: withMeta({ kind: 'plan_update', plan: { type: 'items', planId: V1_PLAN_ID, entries } }, update) };
    }
    case 'plan_update': {
      const body = fastPlanUpdate(update);
      return body && { t: 'event', body };
    }
    default:
      return undefined;
  }
}

function chunk(role: ChunkRole, u: Wire): V1Decoded | undefined {
  const id = u.messageId;
  if (id !== undefined && id !== null && typeof id !== 'string') return undefined;
  const content = textBlock(u.content);
  if (!content) return undefined;
  const d: V1Decoded = { t: 'chunk', role, content, meta: metaOf(u) };
  if (typeof id === 'string') d.messageId = id;
  return d;
}
