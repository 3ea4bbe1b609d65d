// One prompt turn of a real agent through OUR client: the agent process over real pipes,
// `connect()` (src/protocol/connect.ts) negotiating the version, handlers answering permissions
// and serving fs/terminal with real files and processes, every event fed to the plan store.
// The wire traffic (the logger's `wire` hook) is recorded.
import { spawn } from 'node:child_process';
import { Transform } from 'node:stream';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { connect } from '../../../src/protocol/connect';
import type { AcpConnection, ClientHandlers, ConnectOptions } from '../../../src/protocol/api';
import type { ConfigOption, ContentBlock, PermissionRequest, SessionEvent } from '../../../src/protocol/domain';
import type { ElicitationRequest, ElicitationResponse } from '../../../src/protocol/elicitation';
import { PlanStore } from '../../../src/state/planStore';
import { startFakeModel, type FakeModel, type Scenario } from './fakeModel';
import { launchOf, tempDir, type AgentName, type LaunchOptions } from './agents';
import { killGroup } from './rawClient';
import { createServices, type InteropServices } from './services';
import { chooseOption, type PermissionPolicy } from './rawHandlers';
import { writeRecording, type WireLine } from './recorder';
import { foldToolCalls } from './foldToolCalls';

export interface ClientTurnOptions {
  agent: AgentName;
  scenario?: (cwd: string) => Scenario;
  /** `hold`: never answer a permission request (the cancel must answer it); a function picks the option itself. */
  policy?: PermissionPolicy | 'hold' | ((req: PermissionRequest) => string | undefined);
  launch?: LaunchOptions;
  /** Session config options set (through our client) between session/new and the prompt. */
  config?: { configId: string; value: string | boolean }[];
  /**
   * TEST SHIM (tighten once the features land): client capabilities our client does not advertise
   * yet (elicitation, subagents), merged into the initialize request on its way to the agent. Our
   * client's own message (the recording, the outbound check) stays as our client sent it.
   */
  advertise?: Record<string, unknown>;
  /**
   * The user's answer to an elicitation (our client then advertises form elicitation, as the
   * extension does with its ElicitationBroker). Absent: no handler, elicitation/create gets -32601.
   */
  elicit?: (req: ElicitationRequest) => ElicitationResponse;
  /** After the turn ends, also wait for an event like this (work that outlives the turn, e.g. a background subagent). */
  awaitAfterTurn?: (e: SessionEvent) => boolean;
  protocol?: ConnectOptions['protocol'];
  /** Cancel once the fake model starts this step, or once an event matches. */
  cancelWhen?: { modelStep: number } | { event: (e: SessionEvent) => boolean } | { permission: true };
  prompt?: string;
  /** The first prompt's content instead of `prompt`'s text (e.g. a review with resource links to workspace files). */
  promptBlocks?: (ctx: { cwd: string; sessionId: string }) => ContentBlock[];
  /** Runs on the fresh workspace before the agent starts (files the turn works on). */
  prepare?: (cwd: string) => void;
  /** Prompts sent in the same session after the first turn ends, each once the one before ended (the last one's stop reason is returned). */
  thenPrompts?: string[];
  /** Runs once the prompt is sent, alongside the turn (e.g. steering into it); awaited before the turn is reported. */
  whileRunning?: (ctx: { conn: AcpConnection; sessionId: string; model: FakeModel }) => Promise<void>;
  /** Runs once the turn (and `thenPrompts`) ended, on the open connection (session management after a turn). */
  afterTurn?: (ctx: { conn: AcpConnection; sessionId: string; events: SessionEvent[] }) => Promise<void>;
  /** Offer fs and terminal services (default true). */
  services?: boolean;
  record?: string;
}

export interface ClientTurn {
  conn: { version: 1 | 2; agentName?: string; capabilities: AcpConnection['capabilities'] };
  events: SessionEvent[];
  permissions: { req: PermissionRequest; optionId?: string }[];
  store: PlanStore;
  services: InteropServices;
  model: FakeModel;
  sessionId: string;
  stopReason: string;
  promptResult: { messageId?: string; stopReason?: string };
  turnMs: number;
  files: string[];
  wire: WireLine[];
  /** What our protocol layer logged at warn/error level. */
  logs: string[];
  /** Tool calls folded from the events: id → merged fields (patch semantics). */
  toolCalls: Map<string, Record<string, unknown>>;
  /** The config options after `session/new` and the `config` calls. */
  configOptions: ConfigOption[];
}

/** Merges `extra` into the capabilities of an `initialize` request line (v1 and v2 spellings). */
function advertiseShim(extra: Record<string, unknown>): Transform {
  let buf = '';
  const rewrite = (line: string): string => {
    if (!line.includes('"initialize"')) return line;
    try {
      const msg = JSON.parse(line) as { method?: string; params?: Record<string, unknown> };
      if (msg.method !== 'initialize' || !msg.params) return line;
      const key = msg.params.protocolVersion === 1 ? 'clientCapabilities' : 'capabilities';
      msg.params[key] = { ...(msg.params[key] as Record<string, unknown> | undefined), ...extra };
      return JSON.stringify(msg);
    } catch {
      return line;
    }
  };
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      buf += chunk.toString('utf8');
      const lines = buf.split('\n');
      buf = lines.pop() ?? '';
      done(null, lines.map((l) => `${rewrite(l)}\n`).join(''));
    },
    flush(done) {
      done(null, buf);
    },
  });
}

export const AGENT_ID = 'interop';

function waitForEvent(
  events: SessionEvent[],
  subscribe: (l: (e: SessionEvent) => void) => () => void,
  pred: (e: SessionEvent) => boolean,
  what: string,
  timeoutMs = 60_000,
): Promise<SessionEvent> {
  const hit = events.find(pred);
  if (hit) return Promise.resolve(hit);
  return new Promise((resolve, reject) => {
    const off = subscribe((e) => {
      if (pred(e)) {
        clearTimeout(timer);
        off();
        resolve(e);
      }
    });
    const timer = setTimeout(() => {
      off();
      reject(new Error(`timed out waiting for ${what}`));
    }, timeoutMs);
  });
}

export async function clientTurn(opts: ClientTurnOptions): Promise<ClientTurn> {
  const cwd = tempDir('ws');
  opts.prepare?.(cwd);
  const model = await startFakeModel(opts.scenario ? opts.scenario(cwd) : { steps: [] });
  const launch = launchOf(opts.agent, model.url, cwd, opts.launch);
  const services = createServices(cwd);
  const store = new PlanStore();
  const events: SessionEvent[] = [];
  const listeners = new Set<(e: SessionEvent) => void>();
  const subscribe = (l: (e: SessionEvent) => void) => {
    listeners.add(l);
    return () => listeners.delete(l);
  };
  const permissions: ClientTurn['permissions'] = [];
  const permissionListeners = new Set<() => void>();
  const permissionAsked = new Promise<void>((resolve) => permissionListeners.add(resolve));
  const wire: WireLine[] = [];
  const stderr: string[] = [];
  const logs: string[] = [];
  const withServices = opts.services ?? true;

  const handlers: ClientHandlers = {
    onEvent(e) {
      events.push(e);
      store.apply(AGENT_ID, e);
      for (const l of listeners) l(e);
    },
    requestPermission(req, token) {
      const policy = opts.policy ?? 'allow';
      if (policy === 'hold') {
        permissions.push({ req });
        for (const l of permissionListeners) l();
        // Left open like a prompt the user has not answered; only a cancellation ends it.
        return new Promise((resolve) => token.onCancellationRequested(() => resolve({ outcome: 'cancelled' })));
      }
      const optionId = typeof policy === 'function' ? policy(req) : chooseOption(req.options, policy);
      permissions.push({ req, optionId });
      return Promise.resolve(optionId ? { outcome: 'selected', optionId } : { outcome: 'cancelled' });
    },
    ...(withServices ? { readTextFile: services.readTextFile, writeTextFile: services.writeTextFile, terminal: services.terminal } : {}),
    ...(opts.elicit ? { elicit: (req: ElicitationRequest) => Promise.resolve(opts.elicit!(req)) } : {}),
  };

  const child = spawn(launch.command, launch.args, { cwd: launch.cwd, env: launch.env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => stderr.push(d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let conn: AcpConnection | undefined;
  const files: string[] = [];
  try {
    let toAgent: NodeJS.WritableStream = child.stdin;
    if (opts.advertise) {
      const shim = advertiseShim(opts.advertise);
      shim.pipe(child.stdin);
      toAgent = shim;
    }
    conn = await connect(
      { readable: child.stdout, writable: toAgent },
      {
        protocol: opts.protocol ?? 'auto',
        clientInfo: { name: 'acp-plans-interop', version: '0.0.0' },
        handlers,
        logger: {
          log: (level, message) => {
            if (level === 'warn' || level === 'error') logs.push(`${level}: ${message}`);
          },
          wire: (dir, message) => {
            wire.push({ dir, msg: message });
          },
        },
      },
    );
    const setup = await conn.newSession({ cwd, mcpServers: [] });
    const sessionId = setup.sessionId;
    let configOptions = setup.configOptions ?? [];
    for (const c of opts.config ?? []) configOptions = await conn.setConfigOption(sessionId, c.configId, c.value);
    const started = Date.now();
    let running: Promise<void> | undefined;
    const ended = waitForEvent(
      events,
      subscribe,
      (e) => e.sessionId === sessionId && e.kind === 'state' && e.state === 'idle' && e.stopReason != null,
      'the end of the turn',
    );
    const promptResult = await (async () => {
      const p = conn.prompt(sessionId, opts.promptBlocks?.({ cwd, sessionId }) ?? [{ type: 'text', text: opts.prompt ?? 'Run the interop task.' }]);
      running = opts.whileRunning?.({ conn, sessionId, model });
      const c = opts.cancelWhen;
      if (c) {
        const trigger =
          'modelStep' in c ? model.stepStarted(c.modelStep) : 'event' in c ? waitForEvent(events, subscribe, c.event, 'the cancel trigger') : permissionAsked;
        await Promise.race([trigger, ended]);
        conn.cancel(sessionId);
      }
      return p;
    })();
    let end = await ended;
    await running;
    for (const text of opts.thenPrompts ?? []) {
      // Only an idle after this prompt ends it (the earlier ones are in `events` already).
      const next = waitForEvent(
        [],
        subscribe,
        (e) => e.sessionId === sessionId && e.kind === 'state' && e.state === 'idle' && e.stopReason != null,
        `the end of "${text}"`,
      );
      await conn.prompt(sessionId, [{ type: 'text', text }]);
      end = await next;
    }
    const turnMs = Date.now() - started;
    await opts.afterTurn?.({ conn, sessionId, events });
    if (opts.awaitAfterTurn) await waitForEvent(events, subscribe, opts.awaitAfterTurn, 'the work after the turn');
    files.push(...readdirSync(cwd));
    return {
      conn: { version: conn.version, agentName: conn.agentInfo?.name, capabilities: conn.capabilities },
      events,
      permissions,
      store,
      services,
      model,
      sessionId,
      promptResult,
      turnMs,
      files,
      wire,
      logs,
      stopReason: String(end.kind === 'state' ? end.stopReason : ''),
      toolCalls: foldToolCalls(events),
      configOptions,
    };
  } catch (err) {
    throw new Error(`${opts.agent}: ${err instanceof Error ? err.message : String(err)}\n--- agent stderr (tail) ---\n${stderr.join('').slice(-3000)}`);
  } finally {
    const scrubs: [string, string][] = [
      [cwd, '/workspace'],
      [String(launch.env.HOME), '/home/agent'],
      [model.url, 'http://127.0.0.1:PORT'],
      // claude-agent-acp 0.101 names its task files after the cwd with dashes, and quotes the port.
      [cwd.split(path.sep).join('-'), '-workspace'],
      [`127.0.0.1:${model.port}`, '127.0.0.1:PORT'],
    ];
    writeRecording(
      opts.record ?? `client-${opts.agent}`,
      {
        agent: opts.agent,
        agentInfo: conn?.agentInfo,
        protocolVersion: conn?.version,
        driver: 'connect()',
        source: 'test/interop/client.test.ts (real agent, fake model, our client)',
        ...(opts.advertise ? { shimAdvertised: opts.advertise } : {}),
      },
      wire,
      scrubs,
    );
    conn?.dispose();
    child.stdin.end();
    // Real agents do not exit when stdin closes: terminate them after a short grace.
    const term = setTimeout(() => child.kill('SIGTERM'), 500);
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(term);
    clearTimeout(kill);
    killGroup(child.pid);
    services.dispose();
    await model.close();
    launch.cleanup();
    rmSync(cwd, { recursive: true, force: true, maxRetries: 5 });
  }
}
