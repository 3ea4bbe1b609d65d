// ACP v2 schemas for what the client receives (results, agent requests), mapped to the
// version-neutral model. Alpha.3 and the later draft are both accepted where they differ.
// Session updates are in updates.ts; what the client sends in outgoing.ts.
import * as z from 'zod/mini';
import type { AgentCapabilities, AgentInfo, AuthMethod, ConfigOption, JsonObject, PermissionOption, PermissionRequest, PermissionSubject } from '../domain';
import { availableCommands, configOptionUnion } from '../common/config';
import { patchFields, toolCallContentUnion, toolCallUpdateShape } from '../common/toolCall';
import { anyObject, lenientArray, optStr, put, soft, taggedUnion, uint, withMeta } from '../common/zod';
import { diffV2 } from './diff';

// ---------------------------------------------------------------- initialize

const marker = soft(z.nullable(anyObject));
const has = (v: unknown) => v !== undefined && v !== null;

const sessionCaps = z.looseObject({
  prompt: soft(z.nullable(z.looseObject({ image: marker, audio: marker, embeddedContext: marker }))),
  mcp: soft(z.nullable(z.looseObject({ stdio: marker, http: marker }))),
  delete: marker,
  additionalDirectories: marker,
  fork: marker,
  archive: marker,
  title: marker,
  status: marker,
});

const agentCapabilities = soft(z.looseObject({ session: soft(z.nullable(sessionCaps)), auth: marker }));

function capabilities(c: z.infer<typeof agentCapabilities>, authMethods: number): AgentCapabilities {
  const s = c?.session ?? undefined;
  const session = s !== undefined;
  return {
    // Advertising `session` commits the agent to new/list/resume(+replay)/close/prompt/cancel.
    loadSession: session,
    resume: session,
    list: session,
    close: session,
    delete: has(s?.delete),
    fork: has(s?.fork),
    archive: has(s?.archive),
    title: has(s?.title),
    status: has(s?.status),
    additionalDirectories: has(s?.additionalDirectories),
    // auth/logout is required whenever auth methods are advertised.
    logout: authMethods > 0,
    prompt: { image: has(s?.prompt?.image), audio: has(s?.prompt?.audio), embeddedContext: has(s?.prompt?.embeddedContext) },
    mcp: { stdio: has(s?.mcp?.stdio), http: has(s?.mcp?.http), sse: false },
  };
}

export const implementation = z.pipe(
  z.looseObject({ name: z.string(), title: optStr, version: z.string() }),
  z.transform((w): AgentInfo => {
    const i: AgentInfo = { name: w.name, version: w.version };
    put(i, 'title', w.title);
    return i;
  }),
);

const envVar = z.pipe(
  z.looseObject({ name: z.string(), value: z.string() }),
  z.transform((w) => ({ name: w.name, value: w.value })),
);
const authHead = { methodId: z.string(), name: z.string(), description: optStr };

function authMethodOf(w: { methodId: string; name: string; description?: string | null }, type: string, raw: JsonObject): AuthMethod {
  const m: AuthMethod = { id: w.methodId, name: w.name, type, raw };
  put(m, 'description', w.description);
  return m;
}

const authAgent = z.pipe(
  z.looseObject(authHead),
  z.transform((w) => authMethodOf(w, 'agent', w)),
);
const authTerminal = z.pipe(
  z.looseObject({ ...authHead, args: soft(lenientArray(z.string())), env: soft(lenientArray(envVar)) }),
  z.transform((w) => {
    const m = authMethodOf(w, 'terminal', w);
    put(m, 'args', w.args);
    put(m, 'env', w.env);
    return m;
  }),
);
const authOther = z.looseObject(authHead);

/** v2 auth methods: `agent`, `terminal`, or any other type carrying `methodId` and `name`. */
const authMethod = taggedUnion('type', { agent: authAgent, terminal: authTerminal }, (raw, type) => {
  const r = authOther.safeParse(raw);
  return r.success ? authMethodOf(r.data, type, raw) : undefined;
});

export const initializeResult = z.pipe(
  z.looseObject({
    protocolVersion: z.number().check(z.int(), z.gte(0), z.lte(65535)),
    info: implementation,
    capabilities: agentCapabilities,
    authMethods: soft(lenientArray(authMethod)),
  }),
  z.transform((w) => {
    const authMethods = w.authMethods ?? [];
    return { protocolVersion: w.protocolVersion, agentInfo: w.info, authMethods, capabilities: capabilities(w.capabilities, authMethods.length) };
  }),
);

// ---------------------------------------------------------------- sessions

export const configOption: z.ZodMiniType<ConfigOption> = configOptionUnion('configId', 'groupId');
export const configOptions = lenientArray(configOption);

const setupFields = { configOptions: soft(configOptions), availableCommands: soft(availableCommands) };
export const newSessionResult = z.looseObject({ sessionId: z.string(), ...setupFields });
export const resumeSessionResult = z.looseObject(setupFields);
export const setConfigOptionResult = z.looseObject({ configOptions });
export { emptyResult } from '../common/session';

/** Alpha.3 answers `{}`, the later draft `{messageId}`; both are accepted. */
export const promptResult = z.looseObject({ messageId: soft(z.string()), stopReason: soft(z.string()) });

export const usage = soft(z.nullable(z.looseObject({ totalTokens: uint, inputTokens: uint, outputTokens: uint })));

// ---------------------------------------------------------------- tool calls, permission

export const toolCallContent = toolCallContentUnion(diffV2);
export const toolCallUpdate = z.looseObject(toolCallUpdateShape(toolCallContent));

/**
 * A permission's tool call is applied like a `tool_call_update`, except that an empty `rawInput`
 * (`{}`) or `content` (`[]`) does not clear what the call already shows: claude-agent-acp 0.101
 * repeats the call's first, empty snapshot in its plan approval, after it sent the plan as that
 * call's input and content, and the user must see the plan when asked to approve it.
 */
const toolCallSubject = z.pipe(
  z.looseObject({ toolCall: toolCallUpdate }),
  z.transform((w): PermissionSubject => {
    const fields = patchFields(w.toolCall);
    if (isEmptyObject(fields.rawInput)) delete fields.rawInput;
    if (Array.isArray(fields.content) && fields.content.length === 0) delete fields.content;
    return { type: 'tool_call', toolCallId: w.toolCall.toolCallId, fields };
  }),
);

function isEmptyObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}
const commandSubject = z.pipe(
  z.looseObject({
    command: z.string(),
    cwd: z.string(),
    toolCallId: optStr,
    terminalId: optStr,
  }),
  z.transform((w): PermissionSubject => {
    const s: Extract<PermissionSubject, { type: 'command' }> = { type: 'command', command: w.command, cwd: w.cwd };
    put(s, 'toolCallId', w.toolCallId);
    put(s, 'terminalId', w.terminalId);
    return s;
  }),
);
const subject = taggedUnion('type', { tool_call: toolCallSubject, command: commandSubject }, (raw, rawType): PermissionSubject => ({
  type: 'unknown',
  rawType,
  raw,
}));

const permissionOption = z.pipe(
  z.looseObject({ optionId: z.string(), name: z.string(), kind: z.string() }),
  z.transform((w): PermissionOption => withMeta({ optionId: w.optionId, name: w.name, kind: w.kind }, w)),
);

export const permissionRequest = z.pipe(
  z.looseObject({
    sessionId: z.string(),
    title: z.string(),
    description: optStr,
    subject: z.nullish(subject),
    options: z.array(permissionOption),
  }),
  z.transform((w): PermissionRequest => {
    const req: PermissionRequest = { sessionId: w.sessionId, title: w.title, options: w.options };
    put(req, 'description', w.description);
    if (w.subject) req.subject = w.subject;
    return withMeta(req, w);
  }),
);
