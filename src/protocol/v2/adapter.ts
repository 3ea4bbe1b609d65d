// The v2 adapter: v2 wire ⇄ version-neutral model. v2 is already shaped like the model, so
// this is mostly validation; it keeps no per-session state.
import type { AdapterCall, AdapterNotification, InitializeInfo, InitializeOptions, PromptResultValue, VersionAdapter } from '../adapter';
import { randomUUID } from 'crypto';
import type { ListSessionsParams, McpServerConfig, NewSessionParams, SessionListEntry, SessionSetup, SteerOutcome } from '../api';
import type { AvailableCommand, ConfigOption, ContentBlock, JsonObject, PermissionOutcome, PermissionRequest, SessionEvent } from '../domain';
import { decodeEnvelope, encodeOutcome, plainCall } from '../common/calls';
import { listSessionsCall } from '../common/session';
import { steerCall } from '../common/steering';
import { encodeContentBlock } from '../common/content';
import { stamp } from '../common/updates';
import { decodeElicitation, decodeElicitationComplete, encodeElicitationResponse } from '../common/elicitationCodec';
import { parseOrThrow } from '../common/zod';
import { fastUpdate } from './fastPath';
import { V2_METHODS as M } from './methods';
import { emptyResult, initializeResult, newSessionResult, permissionRequest, promptResult, resumeSessionResult, setConfigOptionResult } from './schema';
import { v2Unknown, v2UpdateSchema } from './updates';
import { v2SessionManagement } from './sessionManagement';

export function createV2Adapter(): VersionAdapter {
  return new V2Adapter();
}

function mcpServer(s: McpServerConfig): JsonObject {
  const o: JsonObject = { type: s.type, name: s.name };
  if (s.type === 'stdio') {
    o.command = s.command ?? '';
    if (s.args) o.args = s.args;
    if (s.env) o.env = s.env;
  } else {
    o.url = s.url ?? '';
    if (s.headers) o.headers = s.headers;
  }
  return o;
}

function setupParams(p: NewSessionParams): JsonObject {
  const o: JsonObject = { cwd: p.cwd };
  if (p.additionalDirectories?.length) o.additionalDirectories = p.additionalDirectories;
  if (p.mcpServers?.length) o.mcpServers = p.mcpServers.map(mcpServer);
  return o;
}

function setup(sessionId: string, r: { configOptions?: ConfigOption[]; availableCommands?: AvailableCommand[] }): SessionSetup {
  const s: SessionSetup = { sessionId };
  if (r.configOptions) s.configOptions = r.configOptions;
  if (r.availableCommands) s.commands = r.availableCommands;
  return s;
}

class V2Adapter implements VersionAdapter {
  readonly version = 2 as const;
  readonly methods = M;

  initializeParams(o: InitializeOptions): JsonObject {
    const info: JsonObject = { name: o.clientInfo.name, version: o.clientInfo.version };
    if (o.clientInfo.title !== undefined) info.title = o.clientInfo.title;
    // We can run the configured agent command in a VS Code terminal (terminal auth methods).
    const capabilities: JsonObject = {};
    if (o.elicitation) capabilities.elicitation = { form: {}, url: {} };
    if (o.terminalAuth !== false) capabilities.auth = { terminal: {} };
    return { protocolVersion: 2, info, capabilities };
  }

  parseInitializeResult(raw: unknown): InitializeInfo {
    const r = parseOrThrow(initializeResult, raw, 'initialize result (v2)');
    return { ...r, raw: raw as JsonObject };
  }

  authenticate(methodId: string): AdapterCall<void> {
    return plainCall(M.authenticate, { methodId }, emptyResult, () => undefined);
  }

  logout(): AdapterCall<void> {
    return plainCall(M.logout, {}, emptyResult, () => undefined);
  }

  newSession(p: NewSessionParams): AdapterCall<SessionSetup> {
    return plainCall(M.sessionNew, setupParams(p), newSessionResult, (r) => setup(r.sessionId, r));
  }

  resumeSession(p: NewSessionParams & { sessionId: string; replay: boolean }): AdapterCall<SessionSetup> {
    const params: JsonObject = { sessionId: p.sessionId, ...setupParams(p) };
    if (p.replay) params.replayFrom = { type: 'start' };
    return plainCall(M.sessionResume, params, resumeSessionResult, (r) => setup(p.sessionId, r));
  }

  listSessions(p?: ListSessionsParams): AdapterCall<{ sessions: SessionListEntry[]; nextCursor?: string | null }> {
    return listSessionsCall(M.sessionList, p, true);
  }

  readonly sessionManagement = v2SessionManagement(setupParams, (r) => setup(r.sessionId, r));

  closeSession(sessionId: string): AdapterCall<void> {
    return plainCall(M.sessionClose, { sessionId }, emptyResult, () => undefined);
  }

  deleteSession(sessionId: string): AdapterCall<void> {
    return plainCall(M.sessionDelete, { sessionId }, emptyResult, () => undefined);
  }

  /** The turn's progress and end come as `state_update`s; the response only acknowledges. */
  prompt(sessionId: string, prompt: ContentBlock[], idempotencyKey?: string): AdapterCall<PromptResultValue> {
    const params: JsonObject = { sessionId, prompt: prompt.map(encodeContentBlock) };
    if (idempotencyKey !== undefined) params.idempotencyKey = idempotencyKey;
    return plainCall(M.sessionPrompt, params, promptResult, (r) => {
      const v: PromptResultValue = {};
      if (r.messageId !== undefined) v.messageId = r.messageId;
      if (r.stopReason !== undefined) v.stopReason = r.stopReason;
      return v;
    });
  }

  cancel(sessionId: string): AdapterNotification {
    return { method: M.sessionCancel, params: { sessionId } };
  }

  cancelTerminal(sessionId: string, terminalId: string): AdapterCall<void> {
    return plainCall(M.terminalCancel, { sessionId, terminalId }, emptyResult, () => undefined);
  }

  cancelToolCall(sessionId: string, toolCallId: string): AdapterCall<void> {
    return plainCall(M.toolCallCancel, { sessionId, toolCallId }, emptyResult, () => undefined);
  }

  /** Our own id for the steered message: the answer carries none. */
  steer(sessionId: string, blocks: readonly ContentBlock[]): AdapterCall<SteerOutcome> {
    const id = (): string => `steer-${randomUUID()}`;
    return steerCall(sessionId, blocks, { steered: id, newTurn: id });
  }

  setConfigOption(sessionId: string, configId: string, value: string | boolean): AdapterCall<ConfigOption[]> {
    const params = { sessionId, configId, type: typeof value === 'boolean' ? 'boolean' : 'id', value };
    return {
      method: M.sessionSetConfigOption,
      params,
      eventsBefore: [],
      decode: (raw) => {
        const options = parseOrThrow(setConfigOptionResult, raw, `${M.sessionSetConfigOption} result`).configOptions;
        return { value: options, events: [{ sessionId, kind: 'config_options', options }] };
      },
    };
  }

  decodeUpdate(params: unknown): SessionEvent[] {
    const env = decodeEnvelope(params, 'session/update params (v2)');
    const fast = fastUpdate(env.tag, env.update);
    if (fast !== undefined) return [stamp(env.sessionId, fast)];
    const schema = v2UpdateSchema(env.tag);
    if (schema === undefined) return [stamp(env.sessionId, v2Unknown(env.update, env.tag))];
    const body = parseOrThrow(schema, env.update, `session/update "${env.tag}" (v2)`);
    if (body.kind === 'state') body.raw = env.update;
    return [stamp(env.sessionId, body)];
  }

  decodePermissionRequest(params: unknown): PermissionRequest {
    return parseOrThrow(permissionRequest, params, 'session/request_permission params (v2)');
  }

  encodePermissionOutcome(outcome: PermissionOutcome): JsonObject {
    return encodeOutcome(outcome);
  }

  // Elicitation has one shape in v1 and v2 (src/protocol/common/elicitation.ts, loaded on first use).
  readonly decodeElicitation = decodeElicitation;
  readonly decodeElicitationComplete = decodeElicitationComplete;
  readonly encodeElicitationResponse = encodeElicitationResponse;
}
