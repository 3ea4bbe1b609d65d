// v2 schemas of every message the client sends: request params by method, our results to the
// agent's requests by method, and notifications. Used by tests and the examples check.
import * as z from 'zod/mini';
import {
  contentBlockOut,
  elicitationResponse,
  emptyParams,
  implementationOut,
  listSessionsParams,
  meta,
  methodIdOnly,
  nameValue,
  permissionResponse,
  protocolVersion,
  sessionIdOnly,
} from '../common/outgoing';
import { V2_METHODS as M } from './methods';

const marker = z.nullish(z.looseObject({}));

const clientCapabilities = z.looseObject({
  auth: z.nullish(z.looseObject({ terminal: marker, _meta: meta })),
  elicitation: marker,
  _meta: meta,
});

const knownMcp = new Set(['stdio', 'http']);
export const mcpServerV2 = z.union([
  z.looseObject({
    type: z.literal('stdio'),
    name: z.string(),
    command: z.string(),
    args: z.optional(z.array(z.string())),
    env: z.optional(z.array(nameValue)),
    _meta: meta,
  }),
  z.looseObject({ type: z.literal('http'), name: z.string(), url: z.string(), headers: z.optional(z.array(nameValue)), _meta: meta }),
  z.looseObject({ type: z.string() }).check(z.refine((s) => !knownMcp.has(s.type), 'malformed known MCP server type')),
]);

const sessionSetup = {
  cwd: z.string(),
  additionalDirectories: z.optional(z.array(z.string())),
  mcpServers: z.optional(z.array(mcpServerV2)),
  _meta: meta,
};

const replayFrom = z.nullish(z.looseObject({ type: z.string(), _meta: meta }));

export const V2_REQUEST_PARAMS: Record<string, z.ZodMiniType> = {
  [M.initialize]: z.looseObject({ protocolVersion, info: implementationOut, capabilities: z.optional(clientCapabilities), _meta: meta }),
  [M.authenticate]: methodIdOnly,
  [M.logout]: emptyParams,
  [M.sessionNew]: z.looseObject(sessionSetup),
  [M.sessionResume]: z.looseObject({ ...sessionSetup, sessionId: z.string(), replayFrom }),
  [M.sessionList]: listSessionsParams,
  [M.sessionClose]: sessionIdOnly,
  [M.sessionDelete]: sessionIdOnly,
  [M.sessionSetConfigOption]: z
    .looseObject({ sessionId: z.string(), configId: z.string(), type: z.string(), value: z.unknown(), _meta: meta })
    .check(
      z.refine(
        (p) => (p.type === 'id' ? typeof p.value === 'string' : p.type === 'boolean' ? typeof p.value === 'boolean' : p.value !== undefined),
        'value does not match its type ("id" → string, "boolean" → boolean)',
      ),
    ),
  [M.sessionPrompt]: z.looseObject({
    sessionId: z.string(),
    prompt: z.array(contentBlockOut),
    idempotencyKey: z.optional(z.string().check(z.minLength(1))),
    _meta: meta,
  }),
  [M.terminalCancel]: z.looseObject({ sessionId: z.string(), terminalId: z.string(), _meta: meta }),
  [M.toolCallCancel]: z.looseObject({ sessionId: z.string(), toolCallId: z.string(), _meta: meta }),
};

export const V2_NOTIFICATION_PARAMS: Record<string, z.ZodMiniType> = {
  [M.sessionCancel]: sessionIdOnly,
};

export const V2_CLIENT_RESULTS: Record<string, z.ZodMiniType> = {
  [M.requestPermission]: permissionResponse,
  [M.elicitationCreate]: elicitationResponse,
};
