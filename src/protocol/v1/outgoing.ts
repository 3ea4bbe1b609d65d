// v1 schemas of every message the client sends: request params by method, our results to the
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
import { V1_METHODS as M } from './methods';

const marker = z.nullish(z.looseObject({}));

const clientCapabilities = z.looseObject({
  fs: z.optional(z.looseObject({ readTextFile: z.optional(z.boolean()), writeTextFile: z.optional(z.boolean()), _meta: meta })),
  terminal: z.optional(z.boolean()),
  session: z.nullish(z.looseObject({ configOptions: z.nullish(z.looseObject({ boolean: marker, _meta: meta })), compaction: marker, _meta: meta })),
  plan: marker,
  subagents: marker,
  auth: z.optional(z.looseObject({ terminal: z.optional(z.boolean()), _meta: meta })),
  elicitation: marker,
  _meta: meta,
});

export const mcpServerV1 = z.union([
  z.looseObject({ type: z.enum(['http', 'sse']), name: z.string(), url: z.string(), headers: z.array(nameValue), _meta: meta }),
  z
    .looseObject({ name: z.string(), command: z.string(), args: z.array(z.string()), env: z.array(nameValue), _meta: meta })
    .check(z.refine((s) => s.type === undefined, 'a stdio server has no "type"')),
]);

const sessionSetup = {
  cwd: z.string(),
  additionalDirectories: z.optional(z.array(z.string())),
  _meta: meta,
};

export const V1_REQUEST_PARAMS: Record<string, z.ZodMiniType> = {
  [M.initialize]: z.looseObject({ protocolVersion, clientCapabilities: z.optional(clientCapabilities), clientInfo: z.nullish(implementationOut), _meta: meta }),
  [M.authenticate]: methodIdOnly,
  [M.logout]: emptyParams,
  [M.sessionNew]: z.looseObject({ ...sessionSetup, mcpServers: z.array(mcpServerV1) }),
  [M.sessionLoad]: z.looseObject({ ...sessionSetup, sessionId: z.string(), mcpServers: z.array(mcpServerV1) }),
  [M.sessionResume]: z.looseObject({ ...sessionSetup, sessionId: z.string(), mcpServers: z.optional(z.array(mcpServerV1)) }),
  [M.sessionList]: listSessionsParams,
  [M.sessionClose]: sessionIdOnly,
  [M.sessionDelete]: sessionIdOnly,
  [M.sessionSetMode]: z.looseObject({ sessionId: z.string(), modeId: z.string(), _meta: meta }),
  [M.sessionSetConfigOption]: z.union([
    z.looseObject({ sessionId: z.string(), configId: z.string(), type: z.literal('boolean'), value: z.boolean(), _meta: meta }),
    z
      .looseObject({ sessionId: z.string(), configId: z.string(), value: z.string(), _meta: meta })
      .check(z.refine((p) => p.type === undefined, 'a select value has no "type" in v1')),
  ]),
  [M.sessionPrompt]: z.looseObject({ sessionId: z.string(), prompt: z.array(contentBlockOut), _meta: meta }),
};

export const V1_NOTIFICATION_PARAMS: Record<string, z.ZodMiniType> = {
  [M.sessionCancel]: sessionIdOnly,
};

const exitStatus = z.looseObject({ exitCode: z.nullish(z.number().check(z.int(), z.nonnegative())), signal: z.nullish(z.string()), _meta: meta });

/** Our results to the agent's requests, by the agent's method. */
export const V1_CLIENT_RESULTS: Record<string, z.ZodMiniType> = {
  [M.requestPermission]: permissionResponse,
  [M.elicitationCreate]: elicitationResponse,
  [M.fsReadTextFile]: z.looseObject({ content: z.string(), _meta: meta }),
  [M.fsWriteTextFile]: emptyParams,
  [M.terminalCreate]: z.looseObject({ terminalId: z.string(), _meta: meta }),
  [M.terminalOutput]: z.looseObject({ output: z.string(), truncated: z.boolean(), exitStatus: z.nullish(exitStatus), _meta: meta }),
  [M.terminalWaitForExit]: exitStatus,
  [M.terminalKill]: emptyParams,
  [M.terminalRelease]: emptyParams,
};
