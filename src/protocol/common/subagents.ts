// Subagents and background work, as both versions decode them: `subagent_update` (a child session
// announced on its parent), `session_message` / `session_message_chunk` (inter-session messages),
// the controls an agent offers on an item (`capabilities.cancel`) and the `background` list of a
// state snapshot. Malformed optional fields read as omitted (the schemas' default-on-error); a
// malformed required field makes the whole update malformed (reported by the caller).
import * as z from 'zod/mini';
import type { BackgroundWork, ContentBlock, ItemControls, JsonObject } from '../domain';
import { contentBlock } from './content';
import type { EventBody } from './updates';
import { isObject, lenientArray, optStr, put, soft, taggedUnion, withMeta } from './zod';

/**
 * `capabilities` of a tool call, terminal or subagent: `{cancel: {}}` offers cancel; omitted or null
 * `cancel` does not. A malformed value offers nothing (never a request the agent did not offer).
 */
export const controls = z.catch(
  z.pipe(
    z.unknown(),
    z.transform((v): ItemControls | null | undefined => {
      if (v === undefined || v === null) return v;
      return { cancel: isObject(v) && isObject(v.cancel) };
    }),
  ),
  { cancel: false },
);

/** Reads the child's state (a StateUpdate object) as its state name only; null clears. */
const childState = soft(
  z.nullable(
    z.pipe(
      z.looseObject({ state: z.string() }),
      z.transform((w) => w.state),
    ),
  ),
);

export const subagentUpdate = z.pipe(
  z.looseObject({
    sessionId: z.string().check(z.minLength(1)),
    title: optStr,
    description: optStr,
    state: childState,
    cwd: optStr,
    capabilities: controls,
  }),
  z.transform((w): EventBody => {
    const e: Extract<EventBody, { kind: 'subagent' }> = { kind: 'subagent', childSessionId: w.sessionId };
    put(e, 'title', w.title);
    put(e, 'description', w.description);
    put(e, 'state', w.state);
    put(e, 'cwd', w.cwd);
    put(e, 'capabilities', w.capabilities);
    return withMeta(e, w);
  }),
);

/** Upsert: omitted fields stay unchanged, null clears, `[]` content clears. */
export const sessionMessage = z.pipe(
  z.looseObject({
    messageId: z.string(),
    senderSessionId: optStr,
    recipientSessionId: optStr,
    content: soft(z.nullable(lenientArray(contentBlock))),
  }),
  z.transform((w): EventBody => {
    const e: Extract<EventBody, { kind: 'session_message' }> = { kind: 'session_message', messageId: w.messageId };
    put(e, 'senderSessionId', w.senderSessionId);
    put(e, 'recipientSessionId', w.recipientSessionId);
    if (w.content !== undefined) e.content = w.content as ContentBlock[] | null;
    return withMeta(e, w);
  }),
);

export const sessionMessageChunk = z.pipe(
  z.looseObject({ messageId: z.string(), content: contentBlock }),
  z.transform((w): EventBody => withMeta({ kind: 'session_message_chunk', messageId: w.messageId, content: w.content }, w)),
);

const backgroundItem = taggedUnion<BackgroundWork, BackgroundWork>(
  'type',
  {
    terminal: z.pipe(
      z.looseObject({ terminalId: z.string() }),
      z.transform((w): BackgroundWork => ({ type: 'terminal', terminalId: w.terminalId })),
    ),
    tool_call: z.pipe(
      z.looseObject({ toolCallId: z.string() }),
      z.transform((w): BackgroundWork => ({ type: 'tool_call', toolCallId: w.toolCallId })),
    ),
    subagent: z.pipe(
      z.looseObject({ sessionId: z.string() }),
      z.transform((w): BackgroundWork => ({ type: 'subagent', sessionId: w.sessionId })),
    ),
  },
  (raw: JsonObject, rawType: string): BackgroundWork => ({ type: 'unknown', rawType, raw }),
);

/**
 * `background`: a complete snapshot. Omitted and null mean "not reported"; a malformed list is
 * treated as not reported; an unknown item type is kept (it still means work is running).
 */
export const backgroundList = soft(z.nullable(z.array(backgroundItem)));
