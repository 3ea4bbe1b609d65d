// v1 `session/update` variants, each checked by its own schema (dispatched on `sessionUpdate`
// through a map). Chunks and modes need per-session state, so they come back as `V1Decoded`
// items that the adapter finishes (turns.ts).
import * as z from 'zod/mini';
import type { ConfigOption, ContentBlock, JsonObject, Meta, ToolCallFields } from '../domain';
import { contentBlock } from '../common/content';
import {
  commandsUpdate,
  compactionSummaryChunk,
  compactionUpdate,
  notice,
  planRemoved,
  planUpdate,
  sessionInfoUpdate,
  unknownUpdate,
  usageUpdate,
  type EventBody,
} from '../common/updates';
import { planEntries } from '../common/plan';
import { sessionMessage, sessionMessageChunk, subagentUpdate } from '../common/subagents';
import { patchFields, toolCallLocation } from '../common/toolCall';
import { lenientArray, metaOf, soft, withMeta } from '../common/zod';
import { configOptions, toolCallContent, toolCallUpdate } from './schema';

/** The plan id a v1 `plan` becomes (per the plan-variants RFD). */
export const V1_PLAN_ID = 'main';

export type ChunkRole = 'user' | 'agent' | 'thought';

export type V1Decoded =
  | { t: 'event'; body: EventBody }
  /** A `tool_call` (creation): all fields present, so it replaces. */
  | { t: 'tool_call'; toolCallId: string; fields: ToolCallFields }
  | { t: 'tool_call_update'; toolCallId: string; fields: ToolCallFields }
  | { t: 'chunk'; role: ChunkRole; messageId?: string; content: ContentBlock; meta: Meta }
  | { t: 'mode'; currentModeId: string }
  | { t: 'config'; options: ConfigOption[] };

const event = (body: EventBody): V1Decoded => ({ t: 'event', body });

function chunk(role: ChunkRole) {
  return z.pipe(
    z.looseObject({ content: contentBlock, messageId: soft(z.nullable(z.string())) }),
    z.transform((w): V1Decoded => {
      const d: V1Decoded = { t: 'chunk', role, content: w.content, meta: metaOf(w) };
      if (typeof w.messageId === 'string') d.messageId = w.messageId;
      return d;
    }),
  );
}

const optList = <T>(s: z.ZodMiniType<T>) => soft(lenientArray(s));

/** `tool_call`: a full tool call; omitted fields get their defaults so the event replaces. */
const toolCall = z.pipe(
  z.looseObject({
    toolCallId: z.string(),
    title: z.string(),
    name: soft(z.nullable(z.string())),
    kind: soft(z.string()),
    status: soft(z.string()),
    content: optList(toolCallContent),
    locations: optList(toolCallLocation),
  }),
  z.transform((w): V1Decoded => {
    const fields: ToolCallFields = {
      name: w.name ?? null,
      title: w.title,
      kind: w.kind ?? 'other',
      status: w.status ?? 'pending',
      content: w.content ?? [],
      locations: w.locations ?? [],
      rawInput: w.rawInput ?? null,
      rawOutput: w.rawOutput ?? null,
    };
    return { t: 'tool_call', toolCallId: w.toolCallId, fields: withMeta(fields, w) };
  }),
);

const toolCallUpdateV1 = z.pipe(
  toolCallUpdate,
  z.transform((w): V1Decoded => ({ t: 'tool_call_update', toolCallId: w.toolCallId, fields: patchFields(w) })),
);

const plan = z.pipe(
  z.looseObject({ entries: planEntries }),
  z.transform((w): V1Decoded => event(withMeta({ kind: 'plan_update', plan: { type: 'items', planId: V1_PLAN_ID, entries: w.entries } }, w))),
);

const currentMode = z.pipe(
  z.looseObject({ currentModeId: z.string() }),
  z.transform((w): V1Decoded => ({ t: 'mode', currentModeId: w.currentModeId })),
);

const configUpdate = z.pipe(
  z.looseObject({ configOptions }),
  z.transform((w): V1Decoded => ({ t: 'config', options: w.configOptions })),
);

const asEvent = (s: z.ZodMiniType<EventBody>): z.ZodMiniType<V1Decoded> => z.pipe(s, z.transform(event));

const variants = new Map<string, z.ZodMiniType<V1Decoded>>([
  ['user_message_chunk', chunk('user')],
  ['agent_message_chunk', chunk('agent')],
  ['agent_thought_chunk', chunk('thought')],
  ['tool_call', toolCall],
  ['tool_call_update', toolCallUpdateV1],
  ['plan', plan],
  ['plan_update', asEvent(planUpdate)],
  ['plan_removed', asEvent(planRemoved)],
  ['available_commands_update', asEvent(commandsUpdate)],
  ['current_mode_update', currentMode],
  ['config_option_update', configUpdate],
  ['session_info_update', asEvent(sessionInfoUpdate)],
  ['usage_update', asEvent(usageUpdate)],
  ['notice', asEvent(notice)],
  // Unstable, sent only to a client that advertised `clientCapabilities.session.compaction`.
  ['compaction_update', asEvent(compactionUpdate)],
  ['compaction_summary_chunk', asEvent(compactionSummaryChunk)],
  // Unstable, sent only to a client that advertised `clientCapabilities.subagents`.
  ['subagent_update', asEvent(subagentUpdate)],
  ['session_message', asEvent(sessionMessage)],
  ['session_message_chunk', asEvent(sessionMessageChunk)],
]);

/** The schema for a `sessionUpdate` tag, or undefined when the tag is unknown to this client. */
export function v1UpdateSchema(tag: string): z.ZodMiniType<V1Decoded> | undefined {
  return variants.get(tag);
}

export function v1Unknown(raw: JsonObject, tag: string): V1Decoded {
  return event(unknownUpdate(raw, tag));
}
