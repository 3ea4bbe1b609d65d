// v2 schemas of every message the client sends: request params by method, our results to the
// agent's requests by method, and notifications. Used by tests and the examples check.
import * as z from 'zod';
import {
  contentBlockOut, emptyParams, implementationOut, listSessionsParams, meta, methodIdOnly, nameValue,
  permissionResponse, protocolVersion, sessionIdOnly,
} from '../common/outgoing';
import { V2_METHODS as M } from './methods';

const marker = z.looseObject({}).nullish();

const clientCapabilities = z.looseObject({
  auth: z.looseObject({ terminal: marker, _meta: meta }).nullish(),
  elicitation: marker,
  _meta: meta,
});

const knownMcp = new Set(['stdio', 'http']);
export const mcpServerV2 = z.union([
  z.looseObject({ type: z.literal('stdio'), name: z.string(), command: z.string(), args: z.array(z.string()).optional(), env: z.array(nameValue).optional(), _meta: meta }),
  z.looseObject({ type: z.literal('http'), name: z.string(), url: z.string(), headers: z.array(nameValue).optional(), _meta: meta }),
  z.looseObject({ type: z.string() }).refine((s) => !knownMcp.has(s.type), 'malformed known MCP server type'),
]);

const sessionSetup = {
  cwd: z.string(), additionalDirectories: z.array(z.string()).optional(), mcpServers: z.array(mcpServerV2).optional(), _meta: meta,
};

const replayFrom = z.looseObject({ type: z.string(), _meta: meta }).nullish();

export const V2_REQUEST_PARAMS: Record<string, z.ZodType> = {
  [M.initialize]: z.looseObject({ protocolVersion, info: implementationOut, capabilities: clientCapabilities.optional(), _meta: meta }),
  [M.authenticate]: methodIdOnly,
  [M.logout]: emptyParams,
  [M.sessionNew]: z.looseObject(sessionSetup),
  [M.sessionResume]: z.looseObject({ ...sessionSetup, sessionId: z.string(), replayFrom }),
  [M.sessionList]: listSessionsParams,
  [M.sessionClose]: sessionIdOnly,
  [M.sessionDelete]: sessionIdOnly,
  [M.sessionSetConfigOption]: z.looseObject({ sessionId: z.string(), configId: z.string(), type: z.string(), value: z.unknown(), _meta: meta })
    .refine((p) => (p.type === 'id' ? typeof p.value === 'string' : p.type === 'boolean' ? typeof p.value === 'boolean' : p.value !== undefined),
      'value does not match its type ("id" → string, "boolean" → boolean)'),
  [M.sessionPrompt]: z.looseObject({ sessionId: z.string(), prompt: z.array(contentBlockOut), _meta: meta }),
};

export const V2_NOTIFICATION_PARAMS: Record<string, z.ZodType> = {
  [M.sessionCancel]: sessionIdOnly,
};

export const V2_CLIENT_RESULTS: Record<string, z.ZodType> = {
  [M.requestPermission]: permissionResponse,
};
