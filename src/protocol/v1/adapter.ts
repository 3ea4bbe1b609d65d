// The v1 adapter: v1 wire ⇄ version-neutral model. v1 has no turn states and no message ids,
// so it synthesizes them (turns.ts): `running` when a prompt is sent, `idle` + stopReason from
// the prompt's response, and a stable messageId per turn, role and segment.
import type { AdapterCall, AdapterNotification, InitializeInfo, InitializeOptions, PromptResultValue, VersionAdapter, WireError } from '../adapter';
import type { McpServerConfig, NewSessionParams, SessionListEntry, SessionSetup, SteerOutcome } from '../api';
import type { ConfigOption, ContentBlock, JsonObject, PermissionOutcome, PermissionRequest, SessionEvent } from '../domain';
import { V1_MODE_CONFIG_ID } from '../domain';
import { encodeContentBlock } from '../common/content';
import { stamp } from '../common/updates';
import { decodeElicitation, decodeElicitationComplete, encodeElicitationResponse } from '../common/elicitationCodec';
import { parseOrThrow } from '../common/zod';
import { decodeEnvelope, encodeOutcome, plainCall } from '../common/calls';
import { listSessionsCall } from '../common/session';
import { steerCall } from '../common/steering';
import { V1_METHODS as M } from './methods';
import { emptyResult, initializeResult, loadSessionResult, newSessionResult, permissionRequest, promptResult, setConfigOptionResult } from './schema';
import { V1_SERVICES } from './services';
import { V1Session } from './turns';
import { v1Unknown, v1UpdateSchema, type V1Decoded } from './updates';
import { fastV1Update } from './fastPath';

export function createV1Adapter(): VersionAdapter {
  return new V1Adapter();
}

function mcpServer(s: McpServerConfig): JsonObject {
  if (s.type === 'stdio') return { name: s.name, command: s.command ?? '', args: s.args ?? [], env: s.env ?? [] };
  return { type: s.type, name: s.name, url: s.url ?? '', headers: s.headers ?? [] };
}

function setupParams(p: NewSessionParams): JsonObject {
  const o: JsonObject = { cwd: p.cwd, mcpServers: (p.mcpServers ?? []).map(mcpServer) };
  if (p.additionalDirectories?.length) o.additionalDirectories = p.additionalDirectories;
  return o;
}

class V1Adapter implements VersionAdapter {
  readonly version = 1 as const;
  readonly methods = M;
  readonly clientServices = V1_SERVICES;
  private readonly sessions = new Map<string, V1Session>();

  private session(id: string): V1Session {
    let s = this.sessions.get(id);
    if (!s) {
      s = new V1Session();
      this.sessions.set(id, s);
    }
    return s;
  }

  initializeParams(o: InitializeOptions): JsonObject {
    const caps: JsonObject = {
      fs: { readTextFile: o.fs?.readTextFile ?? false, writeTextFile: o.fs?.writeTextFile ?? false },
      terminal: o.terminal ?? false,
    };
    // Unstable opt-in `session.compaction`: compaction updates instead of a "compacting" tool call.
    caps.session = o.booleanConfigOptions !== false ? { configOptions: { boolean: {} }, compaction: {} } : { compaction: {} };
    if (o.unstablePlans) caps.plan = {};
    if (o.elicitation) caps.elicitation = { form: {}, url: {} };
    // Unstable opt-in: child sessions, their state and inter-session messages (v2 clients must handle them).
    caps.subagents = {};
    // We can run the configured agent command in a VS Code terminal (terminal auth methods).
    if (o.terminalAuth !== false) caps.auth = { terminal: true };
    const info: JsonObject = { name: o.clientInfo.name, version: o.clientInfo.version };
    if (o.clientInfo.title !== undefined) info.title = o.clientInfo.title;
    return { protocolVersion: 1, clientCapabilities: caps, clientInfo: info };
  }

  parseInitializeResult(raw: unknown): InitializeInfo {
    const r = parseOrThrow(initializeResult, raw, 'initialize result (v1)');
    return {
      protocolVersion: r.protocolVersion,
      agentInfo: r.agentInfo ?? undefined,
      capabilities: r.agentCapabilities,
      authMethods: r.authMethods ?? [],
      raw: raw as JsonObject,
    };
  }

  authenticate(methodId: string): AdapterCall<void> {
    return plainCall(M.authenticate, { methodId }, emptyResult, () => undefined);
  }

  logout(): AdapterCall<void> {
    return plainCall(M.logout, {}, emptyResult, () => undefined);
  }

  newSession(p: NewSessionParams): AdapterCall<SessionSetup> {
    return plainCall(M.sessionNew, setupParams(p), newSessionResult, (r) => this.setup(r.sessionId, r.modes, r.configOptions));
  }

  resumeSession(p: NewSessionParams & { sessionId: string; replay: boolean }): AdapterCall<SessionSetup> {
    const params = { sessionId: p.sessionId, ...setupParams(p) };
    if (p.replay) this.session(p.sessionId).resetTurns();
    return plainCall(p.replay ? M.sessionLoad : M.sessionResume, params, loadSessionResult, (r) => this.setup(p.sessionId, r?.modes, r?.configOptions));
  }

  private setup(sessionId: string, modes: V1Session['modes'] | null | undefined, options: ConfigOption[] | null | undefined): SessionSetup {
    const s = this.session(sessionId);
    s.modes = modes ?? undefined;
    s.options = options ?? [];
    const setup: SessionSetup = { sessionId };
    if (modes || options) setup.configOptions = s.allOptions();
    return setup;
  }

  listSessions(p?: { cwd?: string; cursor?: string }): AdapterCall<{ sessions: SessionListEntry[]; nextCursor?: string | null }> {
    return listSessionsCall(M.sessionList, p);
  }

  closeSession(sessionId: string): AdapterCall<void> {
    return plainCall(M.sessionClose, { sessionId }, emptyResult, () => {
      this.sessions.delete(sessionId);
    });
  }

  deleteSession(sessionId: string): AdapterCall<void> {
    return plainCall(M.sessionDelete, { sessionId }, emptyResult, () => {
      this.sessions.delete(sessionId);
    });
  }

  prompt(sessionId: string, prompt: ContentBlock[]): AdapterCall<PromptResultValue> {
    const messageId = this.session(sessionId).startTurn();
    return {
      method: M.sessionPrompt,
      params: { sessionId, prompt: prompt.map(encodeContentBlock) },
      eventsBefore: [
        { sessionId, kind: 'message', role: 'user', messageId, content: prompt },
        { sessionId, kind: 'state', state: 'running' },
      ],
      decode: (raw) => {
        const r = parseOrThrow(promptResult, raw, 'session/prompt result (v1)');
        const idle: SessionEvent = { sessionId, kind: 'state', state: 'idle', stopReason: r.stopReason };
        if (r.usage) idle.usage = r.usage;
        return { value: { messageId, stopReason: r.stopReason }, events: [idle] };
      },
      fail: (e: WireError) => [
        {
          sessionId,
          kind: 'state',
          state: 'idle',
          stopReason: e.code === -32800 ? 'cancelled' : 'error',
          error: e.data === undefined ? { code: e.code, message: e.message } : { code: e.code, message: e.message, data: e.data },
        },
      ],
    };
  }

  cancel(sessionId: string): AdapterNotification {
    return { method: M.sessionCancel, params: { sessionId } };
  }

  steer(sessionId: string, blocks: readonly ContentBlock[]): AdapterCall<SteerOutcome> {
    const s = this.session(sessionId);
    return steerCall(sessionId, blocks, { steered: () => s.steeredSegment(), newTurn: () => s.startTurn() });
  }

  setConfigOption(sessionId: string, configId: string, value: string | boolean): AdapterCall<ConfigOption[]> {
    const s = this.session(sessionId);
    const done = (): { value: ConfigOption[]; events: SessionEvent[] } => {
      const options = s.allOptions();
      return { value: options, events: [{ sessionId, kind: 'config_options', options }] };
    };
    if (configId === V1_MODE_CONFIG_ID) {
      const modeId = String(value);
      return {
        method: M.sessionSetMode,
        params: { sessionId, modeId },
        eventsBefore: [],
        decode: (raw) => {
          parseOrThrow(emptyResult, raw, 'session/set_mode result');
          if (s.modes) s.modes = { ...s.modes, currentModeId: modeId };
          return done();
        },
      };
    }
    const params: JsonObject = typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, value };
    return {
      method: M.sessionSetConfigOption,
      params,
      eventsBefore: [],
      decode: (raw) => {
        s.options = parseOrThrow(setConfigOptionResult, raw, 'session/set_config_option result (v1)').configOptions;
        return done();
      },
    };
  }

  decodeUpdate(params: unknown): SessionEvent[] {
    const env = decodeEnvelope(params, 'session/update params (v1)');
    const fast = fastV1Update(env.tag, env.update);
    if (fast) return this.finish(env.sessionId, fast);
    const schema = v1UpdateSchema(env.tag);
    const d = schema ? parseOrThrow(schema, env.update, `session/update "${env.tag}" (v1)`) : v1Unknown(env.update, env.tag);
    return this.finish(env.sessionId, d);
  }

  private finish(sessionId: string, d: V1Decoded): SessionEvent[] {
    switch (d.t) {
      case 'event':
        return [stamp(sessionId, d.body)];
      case 'tool_call':
      case 'tool_call_update': {
        const s = this.session(sessionId);
        if (d.t === 'tool_call') s.toolCallStarted();
        if (typeof d.fields.title === 'string') s.titles.set(d.toolCallId, d.fields.title);
        return [{ sessionId, kind: 'tool_call', toolCallId: d.toolCallId, fields: d.fields }];
      }
      case 'chunk': {
        const messageId = d.messageId ?? this.session(sessionId).chunkId(d.role);
        const e: SessionEvent = { sessionId, kind: 'message_chunk', role: d.role, messageId, content: d.content };
        if (d.meta !== undefined) e._meta = d.meta;
        return [e];
      }
      case 'mode': {
        const s = this.session(sessionId);
        s.modes = s.modes ? { ...s.modes, currentModeId: d.currentModeId } : { currentModeId: d.currentModeId, availableModes: [] };
        return [{ sessionId, kind: 'config_options', options: s.allOptions() }];
      }
      case 'config': {
        const s = this.session(sessionId);
        s.options = d.options;
        return [{ sessionId, kind: 'config_options', options: s.allOptions() }];
      }
    }
  }

  decodePermissionRequest(params: unknown): PermissionRequest {
    const req = parseOrThrow(permissionRequest, params, 'session/request_permission params (v1)');
    if (req.title === '' && req.subject?.type === 'tool_call') {
      const toolCallId = req.subject.toolCallId;
      req.title = this.sessions.get(req.sessionId)?.titles.get(toolCallId) ?? toolCallId;
    }
    return req;
  }

  encodePermissionOutcome(outcome: PermissionOutcome): JsonObject {
    return encodeOutcome(outcome);
  }

  // Elicitation has one shape in v1 and v2 (src/protocol/common/elicitation.ts, loaded on first use).
  readonly decodeElicitation = decodeElicitation;
  readonly decodeElicitationComplete = decodeElicitationComplete;
  readonly encodeElicitationResponse = encodeElicitationResponse;
}
