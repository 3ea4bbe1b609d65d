// v2 `session/update` variants, each checked by its own schema (dispatched on `sessionUpdate`
// through a map, never tried in order). Any other tag becomes an `unknown` event.
import * as z from 'zod/mini';
import type { ContentBlock, JsonObject } from '../domain';
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
import { patchFields } from '../common/toolCall';
import { backgroundList, controls, sessionMessage, sessionMessageChunk, subagentUpdate } from '../common/subagents';
import { lenientArray, optStr, put, soft, withMeta } from '../common/zod';
import { configOptions, toolCallContent, toolCallUpdate, usage } from './schema';

type Role = 'user' | 'agent' | 'thought';

function chunk(role: Role) {
  return z.pipe(
    z.looseObject({ messageId: z.string(), content: contentBlock }),
    z.transform((w): EventBody => withMeta({ kind: 'message_chunk', role, messageId: w.messageId, content: w.content }, w)),
  );
}

/** Upsert: omitted content = unchanged, null or [] = cleared, an array replaces. */
function message(role: Role) {
  return z.pipe(
    z.looseObject({ messageId: z.string(), content: soft(z.nullable(lenientArray(contentBlock))) }),
    z.transform((w): EventBody => {
      const e: Extract<EventBody, { kind: 'message' }> = { kind: 'message', role, messageId: w.messageId, content: undefined };
      if (w.content === undefined) delete e.content;
      else e.content = w.content as ContentBlock[] | null;
      return withMeta(e, w);
    }),
  );
}

const wireError = z.looseObject({ code: z.number().check(z.int()), message: z.string() });

/**
 * A state snapshot. Idle carries stopReason as a plain string (alpha.3) or tagged with `error`
 * (later draft). Any state is accepted (`unknown`, future ones); the adapter adds `raw`.
 */
const stateUpdate = z.pipe(
  z.looseObject({
    state: z.string(),
    stopReason: soft(z.nullable(z.string())),
    error: soft(z.nullable(wireError)),
    usage,
    background: backgroundList,
  }),
  z.transform((w): EventBody => {
    const e: Extract<EventBody, { kind: 'state' }> = { kind: 'state', state: w.state };
    put(e, 'background', w.background);
    if (w.state === 'idle') {
      put(e, 'stopReason', w.stopReason);
      if (w.error !== undefined) {
        e.error =
          w.error === null
            ? null
            : w.error.data === undefined
              ? { code: w.error.code, message: w.error.message }
              : { code: w.error.code, message: w.error.message, data: w.error.data };
      }
      put(e, 'usage', w.usage);
    }
    return e;
  }),
);

const toolCall = z.pipe(
  z.extend(toolCallUpdate, { capabilities: controls }),
  z.transform((w): EventBody => {
    const fields = patchFields(w);
    put(fields, 'capabilities', w.capabilities);
    return { kind: 'tool_call', toolCallId: w.toolCallId, fields };
  }),
);

const toolCallContentChunk = z.pipe(
  z.looseObject({ toolCallId: z.string(), content: toolCallContent }),
  z.transform((w): EventBody => withMeta({ kind: 'tool_call_content_chunk', toolCallId: w.toolCallId, content: w.content }, w)),
);

const exitStatus = z.pipe(
  z.looseObject({ exitCode: soft(z.nullable(z.number().check(z.int()))), signal: optStr }),
  z.transform((w) => {
    const s: { exitCode?: number | null; signal?: string | null } = {};
    put(s, 'exitCode', w.exitCode);
    put(s, 'signal', w.signal);
    return s;
  }),
);

/** Terminal snapshot: `output.data` (base64) replaces the whole buffer when present. */
const terminalUpdate = z.pipe(
  z.looseObject({
    terminalId: z.string(),
    command: optStr,
    cwd: optStr,
    output: soft(z.nullable(z.looseObject({ data: z.string() }))),
    exitStatus: soft(z.nullable(exitStatus)),
    capabilities: controls,
  }),
  z.transform((w): EventBody => {
    const e: Extract<EventBody, { kind: 'terminal_update' }> = { kind: 'terminal_update', terminalId: w.terminalId };
    put(e, 'command', w.command);
    put(e, 'cwd', w.cwd);
    if (w.output !== undefined) e.output = w.output === null ? null : w.output.data;
    put(e, 'exitStatus', w.exitStatus);
    put(e, 'capabilities', w.capabilities);
    return withMeta(e, w);
  }),
);

const terminalOutputChunk = z.pipe(
  z.looseObject({ terminalId: z.string(), data: z.string() }),
  z.transform((w): EventBody => withMeta({ kind: 'terminal_output_chunk', terminalId: w.terminalId, data: w.data }, w)),
);

const configUpdate = z.pipe(
  z.looseObject({ configOptions }),
  z.transform((w): EventBody => ({ kind: 'config_options', options: w.configOptions })),
);

/** `replay_complete` (v2, after the last replayed update of a resume with replayFrom). */
const replayComplete = z.pipe(
  z.looseObject({}),
  z.transform((w): EventBody => withMeta({ kind: 'replay_complete' }, w)),
);

const variants = new Map<string, z.ZodMiniType<EventBody>>([
  ['user_message_chunk', chunk('user')],
  ['agent_message_chunk', chunk('agent')],
  ['agent_thought_chunk', chunk('thought')],
  ['user_message', message('user')],
  ['agent_message', message('agent')],
  ['agent_thought', message('thought')],
  ['state_update', stateUpdate],
  ['tool_call_update', toolCall],
  ['tool_call_content_chunk', toolCallContentChunk],
  ['terminal_update', terminalUpdate],
  ['terminal_output_chunk', terminalOutputChunk],
  ['plan_update', planUpdate],
  ['plan_removed', planRemoved],
  ['available_commands_update', commandsUpdate],
  ['config_option_update', configUpdate],
  ['session_info_update', sessionInfoUpdate],
  ['usage_update', usageUpdate],
  ['notice', notice],
  ['compaction_update', compactionUpdate],
  ['compaction_summary_chunk', compactionSummaryChunk],
  ['subagent_update', subagentUpdate],
  ['session_message', sessionMessage],
  ['session_message_chunk', sessionMessageChunk],
  ['replay_complete', replayComplete],
]);

export function v2UpdateSchema(tag: string): z.ZodMiniType<EventBody> | undefined {
  return variants.get(tag);
}

export function v2Unknown(raw: JsonObject, tag: string): EventBody {
  return unknownUpdate(raw, tag);
}
