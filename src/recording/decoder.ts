// Decodes recorded ACP traffic into what a live connection would have produced, without a
// process or a connection: the version from the recorded `initialize` answer (decided exactly as
// negotiate.ts decides), then the real adapter of that version for every message, the way
// connect.ts uses it:
//   - our requests (`send`) build the adapter's call (a v1 prompt synthesizes the user message
//     and the turn's `running` state), and the agent's recorded response is decoded by that call
//     (session setup, the v1 turn's `idle` + stop reason, config options);
//   - the agent's `session/update` → events (an undecodable one is kept as an `unknown` event);
//   - the agent's `session/request_permission` → its implied events and a `permission` output;
//     our recorded answer → a `permission_answer` output;
//   - a new `initialize` starts a new connection (ids restart, a new adapter).
// Client-service requests (v1 fs/terminal) and other methods produce nothing. Nothing is ever
// answered or sent. Problems (a malformed message) become `note` outputs and never stop a replay.
// No `vscode`.
import { createAdapter, permissionEvents, type AdapterCall, type VersionAdapter } from '../protocol/adapter';
import type { AgentInfo, ContentBlock, PermissionOutcome, PermissionRequest, ProtocolVersion, SessionEvent } from '../protocol/domain';
import { V1_MODE_CONFIG_ID } from '../protocol/domain';
import type { SessionSetup } from '../protocol/api';
import { decodeOutcome } from '../protocol/common/calls';
import { contentBlock } from '../protocol/common/content';
import { unknownUpdateEvent } from '../protocol/connect';
import { decideVersion } from '../protocol/negotiate';
import { isInitialize, type RecordedMessage, type WireMessage } from './format';

export { isInitialize } from './format';

export type ReplayOutput =
  | { kind: 'connected'; version: ProtocolVersion; agentInfo: AgentInfo | undefined }
  | { kind: 'session'; sessionId: string; cwd: string | undefined }
  | { kind: 'event'; event: SessionEvent }
  | { kind: 'permission'; requestId: string; request: PermissionRequest }
  | { kind: 'permission_answer'; requestId: string; sessionId: string; outcome: PermissionOutcome }
  | { kind: 'note'; line: number; text: string };

interface PendingCall {
  readonly call: AdapterCall<unknown>;
  /** session/new, load, resume: the result opens a session. */
  readonly opens: boolean;
  readonly cwd: string | undefined;
}

export class ReplayDecoder {
  private adapter: VersionAdapter | undefined;
  private readonly initIds = new Set<string>();
  private readonly calls = new Map<string, PendingCall>();
  private readonly permissions = new Map<string, { requestId: string; sessionId: string }>();
  private assumedNoted = false;
  /** The line being decoded (for notes). */
  private line = 0;

  /**
   * `fallback`: the version to assume when no `initialize` answer was recorded (the header's).
   * `admits`: whether the agent's messages for a session are decoded at all (a replay's session
   * budget, replaySink.ts); an update or permission request for another session produces nothing.
   */
  constructor(
    private readonly fallback: ProtocolVersion = 1,
    private readonly admits: (sessionId: string) => boolean = () => true,
  ) {}

  get version(): ProtocolVersion | undefined {
    return this.adapter?.version;
  }

  /** Everything one recorded line implies, in order. */
  decode(m: RecordedMessage): ReplayOutput[] {
    const out: ReplayOutput[] = [];
    this.line = m.line;
    for (const msg of m.msgs) {
      try {
        this.one(m.dir, msg, out);
      } catch (err) {
        out.push({ kind: 'note', line: m.line, text: err instanceof Error ? err.message : String(err) });
      }
    }
    return out;
  }

  private one(dir: 'send' | 'receive', msg: WireMessage, out: ReplayOutput[]): void {
    const line = this.line;
    const method = typeof msg.method === 'string' ? msg.method : undefined;
    const id = 'id' in msg && msg.id !== undefined ? idKey(msg.id) : undefined;
    if (method !== undefined && isInitialize(method) && dir === 'send') {
      if (id !== undefined) this.initIds.add(id);
      return;
    }
    if (method === undefined) {
      if (id === undefined) return;
      if (dir === 'receive' && this.initIds.has(id)) return this.initialized(msg, id, out);
      return dir === 'receive' ? this.agentAnswered(msg, id, out) : this.clientAnswered(msg, id, out);
    }
    const a = this.adapterFor(out);
    if (dir === 'receive' && (method === a.methods.sessionUpdate || method === a.methods.requestPermission)) {
      const sessionId = params(msg).sessionId;
      if (typeof sessionId === 'string' && !this.admits(sessionId)) return;
    }
    if (dir === 'send') {
      if (id !== undefined) this.clientRequest(a, method, params(msg), id, out);
    } else if (method === a.methods.sessionUpdate) {
      let events: SessionEvent[];
      try {
        events = a.decodeUpdate(msg.params);
      } catch (err) {
        out.push({ kind: 'note', line, text: `malformed session/update rejected (kept raw): ${errorText(err)}` });
        events = unknownUpdateEvent(msg.params, errorText(err));
      }
      for (const event of events) out.push({ kind: 'event', event });
    } else if (method === a.methods.requestPermission && id !== undefined) {
      const request = a.decodePermissionRequest(msg.params);
      for (const event of permissionEvents(request)) out.push({ kind: 'event', event });
      const requestId = `replay-${line}-${this.permissions.size}`;
      this.permissions.set(id, { requestId, sessionId: request.sessionId });
      out.push({ kind: 'permission', requestId, request });
    }
  }

  /** The recorded answer to `initialize`: a new connection, decided as negotiate.ts does. */
  private initialized(msg: WireMessage, id: string, out: ReplayOutput[]): void {
    this.initIds.delete(id);
    if (!('result' in msg)) return; // a refused offer; the retry follows
    const { adapter, info } = decideVersion(msg.result, 'auto');
    this.adapter = adapter;
    this.calls.clear();
    this.permissions.clear();
    out.push({ kind: 'connected', version: adapter.version, agentInfo: info.agentInfo });
  }

  private adapterFor(out: ReplayOutput[]): VersionAdapter {
    if (this.adapter) return this.adapter;
    this.adapter = createAdapter(this.fallback);
    if (!this.assumedNoted) {
      this.assumedNoted = true;
      out.push({ kind: 'note', line: this.line, text: `no "initialize" answer before this line; decoding as ACP v${this.fallback}` });
    }
    return this.adapter;
  }

  private clientRequest(a: VersionAdapter, method: string, p: Record<string, unknown>, id: string, out: ReplayOutput[]): void {
    const m = a.methods;
    const sessionId = str(p.sessionId) ?? '';
    const cwd = str(p.cwd);
    let call: AdapterCall<unknown> | undefined;
    let opens = false;
    if (method === m.sessionNew) {
      call = a.newSession({ cwd: cwd ?? '' });
      opens = true;
    } else if (method === m.sessionResume || method === m.sessionLoad) {
      call = a.resumeSession({ sessionId, cwd: cwd ?? '', replay: method === m.sessionLoad });
      opens = true;
    } else if (method === m.sessionPrompt) {
      call = a.prompt(sessionId, blocks(p.prompt));
    } else if (method === m.sessionSetConfigOption && (typeof p.value === 'string' || typeof p.value === 'boolean')) {
      call = a.setConfigOption(sessionId, str(p.configId) ?? '', p.value);
    } else if (m.sessionSetMode !== undefined && method === m.sessionSetMode) {
      call = a.setConfigOption(sessionId, V1_MODE_CONFIG_ID, str(p.modeId) ?? '');
    }
    if (!call) return;
    this.calls.set(id, { call, opens, cwd });
    for (const event of call.eventsBefore) out.push({ kind: 'event', event });
  }

  /** The agent's recorded response to one of our requests, decoded by the call that sent it. */
  private agentAnswered(msg: WireMessage, id: string, out: ReplayOutput[]): void {
    const pending = this.calls.get(id);
    if (!pending) return;
    this.calls.delete(id);
    const { call } = pending;
    let events: SessionEvent[];
    if ('result' in msg) {
      let decoded: { value: unknown; events: SessionEvent[] };
      try {
        decoded = call.decode(msg.result);
      } catch (err) {
        out.push({ kind: 'note', line: this.line, text: `${call.method}: unexpected result: ${errorText(err)}` });
        for (const event of call.fail?.({ code: -32603, message: errorText(err) }) ?? []) out.push({ kind: 'event', event });
        return;
      }
      events = decoded.events;
      if (pending.opens) events = [...this.opened(decoded.value as SessionSetup, pending.cwd, out), ...events];
    } else {
      events = call.fail?.(wireError(msg.error)) ?? [];
    }
    for (const event of events) out.push({ kind: 'event', event });
  }

  /** A session opened (as the supervisor reports it: the session, then its options and commands). */
  private opened(setup: SessionSetup, cwd: string | undefined, out: ReplayOutput[]): SessionEvent[] {
    out.push({ kind: 'session', sessionId: setup.sessionId, cwd });
    const events: SessionEvent[] = [];
    if (setup.configOptions) events.push({ sessionId: setup.sessionId, kind: 'config_options', options: setup.configOptions });
    if (setup.commands) events.push({ sessionId: setup.sessionId, kind: 'commands', commands: setup.commands });
    return events;
  }

  /** Our recorded answer to the agent's request: only permission answers are shown. */
  private clientAnswered(msg: WireMessage, id: string, out: ReplayOutput[]): void {
    const p = this.permissions.get(id);
    if (!p) return;
    this.permissions.delete(id);
    const outcome = 'result' in msg ? decodeOutcome(msg.result) : { outcome: 'cancelled' as const };
    out.push({ kind: 'permission_answer', requestId: p.requestId, sessionId: p.sessionId, outcome });
  }
}

function idKey(id: unknown): string {
  return `${typeof id}:${String(id)}`;
}

function params(msg: WireMessage): Record<string, unknown> {
  const p = msg.params;
  return typeof p === 'object' && p !== null && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** Our recorded prompt's blocks, decoded as the adapters' content decoder reads them. */
function blocks(raw: unknown): ContentBlock[] {
  if (!Array.isArray(raw)) return [];
  const out: ContentBlock[] = [];
  for (const b of raw) {
    const r = contentBlock.safeParse(b);
    if (r.success) out.push(r.data);
  }
  return out;
}

function wireError(e: unknown): { code: number; message: string; data?: unknown } {
  const o = typeof e === 'object' && e !== null ? (e as Record<string, unknown>) : {};
  const err: { code: number; message: string; data?: unknown } = {
    code: typeof o.code === 'number' ? o.code : -32603,
    message: typeof o.message === 'string' ? o.message : 'error',
  };
  if (o.data !== undefined) err.data = o.data;
  return err;
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
