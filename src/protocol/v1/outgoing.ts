// v1 schemas of every message the client sends: request params by method, our results to the
// agent's requests by method, and notifications. Used by tests and the examples check.
import * as z from 'zod';
import {
  contentBlockOut, emptyParams, implementationOut, listSessionsParams, meta, methodIdOnly, nameValue,
  permissionResponse, protocolVersion, sessionIdOnly,
} from '../common/outgoing';
import { V1_METHODS as M } from './methods';

const marker = z.looseObject({}).nullish();

const clientCapabilities = z.looseObject({
  fs: z.looseObject({ readTextFile: z.boolean().optional(), writeTextFile: z.boolean().optional(), _meta: meta }).optional(),
  terminal: z.boolean().optional(),
  session: z.looseObject({ configOptions: z.looseObject({ boolean: marker, _meta: meta }).nullish(), _meta: meta }).nullish(),
  plan: marker,
  auth: z.looseObject({ terminal: z.boolean().optional(), _meta: meta }).optional(),
  elicitation: marker,
  _meta: meta,
});

export const mcpServerV1 = z.union([
  z.looseObject({ type: z.enum(['http', 'sse']), name: z.string(), url: z.string(), headers: z.array(nameValue), _meta: meta }),
  z.looseObject({ name: z.string(), command: z.string(), args: z.array(z.string()), env: z.array(nameValue), _meta: meta })
    .refine((s) => s.type === undefined, 'a stdio server has no "type"'),
]);

const sessionSetup = {
  cwd: z.string(), additionalDirectories: z.array(z.string()).optional(), _meta: meta,
};

export const V1_REQUEST_PARAMS: Record<string, z.ZodType> = {
  [M.initialize]: z.looseObject({ protocolVersion, clientCapabilities: clientCapabilities.optional(), clientInfo: implementationOut.nullish(), _meta: meta }),
  [M.authenticate]: methodIdOnly,
  [M.logout]: emptyParams,
  [M.sessionNew]: z.looseObject({ ...sessionSetup, mcpServers: z.array(mcpServerV1) }),
  [M.sessionLoad]: z.looseObject({ ...sessionSetup, sessionId: z.string(), mcpServers: z.array(mcpServerV1) }),
  [M.sessionResume]: z.looseObject({ ...sessionSetup, sessionId: z.string(), mcpServers: z.array(mcpServerV1).optional() }),
  [M.sessionList]: listSessionsParams,
  [M.sessionClose]: sessionIdOnly,
  [M.sessionDelete]: sessionIdOnly,
  [M.sessionSetMode]: z.looseObject({ sessionId: z.string(), modeId: z.string(), _meta: meta }),
  [M.sessionSetConfigOption]: z.union([
    z.looseObject({ sessionId: z.string(), configId: z.string(), type: z.literal('boolean'), value: z.boolean(), _meta: meta }),
    z.looseObject({ sessionId: z.string(), configId: z.string(), value: z.string(), _meta: meta })
      .refine((p) => p.type === undefined, 'a select value has no "type" in v1'),
  ]),
  [M.sessionPrompt]: z.looseObject({ sessionId: z.string(), prompt: z.array(contentBlockOut), _meta: meta }),
};

export const V1_NOTIFICATION_PARAMS: Record<string, z.ZodType> = {
  [M.sessionCancel]: sessionIdOnly,
};

const exitStatus = z.looseObject({ exitCode: z.number().int().nonnegative().nullish(), signal: z.string().nullish(), _meta: meta });

/** Our results to the agent's requests, by the agent's method. */
export const V1_CLIENT_RESULTS: Record<string, z.ZodType> = {
  [M.requestPermission]: permissionResponse,
  [M.fsReadTextFile]: z.looseObject({ content: z.string(), _meta: meta }),
  [M.fsWriteTextFile]: emptyParams,
  [M.terminalCreate]: z.looseObject({ terminalId: z.string(), _meta: meta }),
  [M.terminalOutput]: z.looseObject({ output: z.string(), truncated: z.boolean(), exitStatus: exitStatus.nullish(), _meta: meta }),
  [M.terminalWaitForExit]: exitStatus,
  [M.terminalKill]: emptyParams,
  [M.terminalRelease]: emptyParams,
};
