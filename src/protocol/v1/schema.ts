// ACP v1 schemas for what the client receives (results, agent requests), mapped to the
// version-neutral model. Session updates are in updates.ts; what the client sends in requests.ts.
import * as z from 'zod/mini';
import type { AgentCapabilities, AgentInfo, AuthMethod, ConfigOption, PermissionOption, PermissionRequest } from '../domain';
import { configOptionUnion } from '../common/config';
import { diffV1 } from './diff';
import { toolCallContentUnion, toolCallUpdateShape, patchFields } from '../common/toolCall';
import { anyObject, lenientArray, optStr, put, soft, uint, withMeta } from '../common/zod';

// ---------------------------------------------------------------- initialize

const flag = soft(z.boolean());
const marker = soft(z.nullable(anyObject));
const has = (v: unknown) => v !== undefined && v !== null;

const agentCapabilities = z.pipe(
  soft(
    z.looseObject({
      loadSession: flag,
      promptCapabilities: soft(z.looseObject({ image: flag, audio: flag, embeddedContext: flag })),
      mcpCapabilities: soft(z.looseObject({ http: flag, sse: flag })),
      sessionCapabilities: soft(z.looseObject({ list: marker, delete: marker, additionalDirectories: marker, resume: marker, close: marker })),
      auth: soft(z.looseObject({ logout: marker })),
    }),
  ),
  z.transform((c): AgentCapabilities => ({
    loadSession: c?.loadSession === true,
    resume: has(c?.sessionCapabilities?.resume),
    list: has(c?.sessionCapabilities?.list),
    close: has(c?.sessionCapabilities?.close),
    delete: has(c?.sessionCapabilities?.delete),
    additionalDirectories: has(c?.sessionCapabilities?.additionalDirectories),
    logout: has(c?.auth?.logout),
    prompt: {
      image: c?.promptCapabilities?.image === true,
      audio: c?.promptCapabilities?.audio === true,
      embeddedContext: c?.promptCapabilities?.embeddedContext === true,
    },
    mcp: { stdio: true, http: c?.mcpCapabilities?.http === true, sse: c?.mcpCapabilities?.sse === true },
  })),
);

export const implementation = z.pipe(
  z.looseObject({ name: z.string(), title: optStr, version: z.string() }),
  z.transform((w): AgentInfo => {
    const i: AgentInfo = { name: w.name, version: w.version };
    put(i, 'title', w.title);
    return i;
  }),
);

/** v1 auth method: no `type` = agent; `terminal` has an env map. Other types keep the agent shape. */
const authMethod = z.pipe(
  z.looseObject({
    id: z.string(),
    name: z.string(),
    description: optStr,
    type: z.optional(z.string()),
    args: soft(lenientArray(z.string())),
    env: soft(z.record(z.string(), z.unknown())),
  }),
  z.transform((w): AuthMethod => {
    const m: AuthMethod = { id: w.id, name: w.name, type: w.type ?? 'agent', raw: w };
    put(m, 'description', w.description);
    if (w.type === 'terminal') {
      put(m, 'args', w.args);
      if (w.env)
        m.env = Object.entries(w.env)
          .filter(([, v]) => typeof v === 'string')
          .map(([name, value]) => ({ name, value: value as string }));
    }
    return m;
  }),
);

export const initializeResult = z.looseObject({
  protocolVersion: z.number().check(z.int(), z.gte(0), z.lte(65535)),
  agentCapabilities,
  authMethods: soft(lenientArray(authMethod)),
  agentInfo: soft(z.nullable(implementation)),
});

// ---------------------------------------------------------------- sessions

export interface V1Modes {
  currentModeId: string;
  availableModes: { id: string; name: string; description?: string | null }[];
}

const sessionMode = z.pipe(
  z.looseObject({ id: z.string(), name: z.string(), description: optStr }),
  z.transform((w) => {
    const m: V1Modes['availableModes'][number] = { id: w.id, name: w.name };
    put(m, 'description', w.description);
    return m;
  }),
);
export const modeState = z.pipe(
  z.looseObject({ currentModeId: z.string(), availableModes: lenientArray(sessionMode) }),
  z.transform((w): V1Modes => ({ currentModeId: w.currentModeId, availableModes: w.availableModes })),
);

export const configOption: z.ZodMiniType<ConfigOption> = configOptionUnion('id', 'group');
export const configOptions = lenientArray(configOption);

const setupFields = { modes: soft(z.nullable(modeState)), configOptions: soft(z.nullable(configOptions)) };
export const newSessionResult = z.looseObject({ sessionId: z.string(), ...setupFields });
/** load and resume results; a `null` result (shown in the docs) reads as `{}`. */
export const loadSessionResult = z.nullish(z.looseObject(setupFields));
export const setConfigOptionResult = z.looseObject({ configOptions });
export { emptyResult } from '../common/session';

export const usage = soft(z.nullable(z.looseObject({ totalTokens: uint, inputTokens: uint, outputTokens: uint })));
export const promptResult = z.looseObject({ stopReason: z.string(), usage });

// ---------------------------------------------------------------- tool calls, permission

export const toolCallContent = toolCallContentUnion(diffV1);
export const toolCallUpdate = z.looseObject(toolCallUpdateShape(toolCallContent));

const permissionOption = z.pipe(
  z.looseObject({ optionId: z.string(), name: z.string(), kind: z.string() }),
  z.transform((w): PermissionOption => withMeta({ optionId: w.optionId, name: w.name, kind: w.kind }, w)),
);

export const permissionRequest = z.pipe(
  z.looseObject({
    sessionId: z.string(),
    toolCall: toolCallUpdate,
    options: z.array(permissionOption),
  }),
  z.transform((w): PermissionRequest => {
    const fields = patchFields(w.toolCall);
    const req: PermissionRequest = {
      sessionId: w.sessionId,
      title: typeof fields.title === 'string' ? fields.title : '',
      subject: { type: 'tool_call', toolCallId: w.toolCall.toolCallId, fields },
      options: w.options,
    };
    return withMeta(req, w);
  }),
);
