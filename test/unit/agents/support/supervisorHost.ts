// A SupervisorHost for unit tests: real agent processes (ProcessEndpoint: an AgentProcess over real
// pipes) and the real connect(); a subclass may open other endpoints (fakeEndpoint.ts); only time is fake: `now()` reads `clock`, and `schedule` records each call so a
// test runs the function itself (no timers, no sleeps). Everything the supervisor reports
// (lifecycle, session events, reports) goes into one log that tests wait on, event by event.
import * as os from 'node:os';
import type { AgentDefinition } from '../../../../src/agents/agentConfig';
import type { AgentEndpoint, LifecycleEvent, SupervisorHost } from '../../../../src/agents/supervisor';
import { ProcessEndpoint } from '../../../../src/agents/processEndpoint';
import type { MessageStream } from '../../../../src/protocol/transport/messageStream';
import type { AgentStatus, ClientServices, ConnectOptions, ProtocolLogger } from '../../../../src/protocol/api';
import { connect } from '../../../../src/protocol/connect';
import type { PermissionOutcome, SessionEvent } from '../../../../src/protocol/domain';
import type { IDisposable } from '../../../../src/common/lifecycle';
import { OutboundRecorder } from '../../protocol/outbound';
import { SCRIPTED_AGENT } from '../../protocol/outboundHarness';

export type Entry =
  { type: 'lifecycle'; e: LifecycleEvent } | { type: 'event'; e: SessionEvent } | { type: 'report'; message: string; severity: 'error' | 'warning' | 'info' };

export interface Scheduled {
  fn: () => void;
  ms: number;
  disposed: boolean;
}

export const AGENT_NAME = 'Scripted Agent';

/** A definition running the scripted agent (test/agents/scriptedAgent.ts) in `mode`. */
export function scriptedAgent(mode: string, options: Record<string, unknown> = {}): AgentDefinition {
  return {
    id: 'agent:scripted',
    name: AGENT_NAME,
    command: process.execPath,
    args: [SCRIPTED_AGENT, mode, JSON.stringify(options)],
    env: {},
    protocol: 'auto',
    builtIn: false,
  };
}

/** A definition running `command args…` (a one-liner or a missing command). */
export function commandAgent(command: string, args: string[] = []): AgentDefinition {
  return { id: 'agent:cmd', name: AGENT_NAME, command, args, env: {}, protocol: 'auto', builtIn: false };
}

export class TestHost implements SupervisorHost {
  readonly log: Entry[] = [];
  /** The process endpoints opened, in order. */
  readonly procs: ProcessEndpoint[] = [];
  /** One per connection attempt, in order: what the client sent and received. */
  readonly recorders: OutboundRecorder[] = [];
  readonly scheduled: Scheduled[] = [];
  clock = 1_000_000;
  private waiters: { from: number; pred: (x: Entry) => boolean; resolve: (x: Entry) => void }[] = [];

  openEndpoint(def: AgentDefinition): AgentEndpoint {
    const p = new ProcessEndpoint({ command: def.command, args: def.args, env: def.env, cwd: os.tmpdir() }, () => {
      /* the agent echoes what it gets; not needed here */
    });
    this.procs.push(p);
    return p;
  }

  connect(stream: MessageStream, options: ConnectOptions) {
    return connect(stream, options);
  }

  assertMayStart(): void {
    /* trusted */
  }

  connectOptions(): Omit<ConnectOptions, 'handlers' | 'logger' | 'protocol'> {
    return { clientInfo: { name: 'acp-plans-tests', version: '0.0.1' }, initializeTimeoutMs: 15_000 };
  }

  services(): ClientServices {
    return {};
  }

  logger(): ProtocolLogger {
    const r = new OutboundRecorder();
    this.recorders.push(r);
    return r.logger;
  }

  onEvent(_agentId: string, e: SessionEvent): void {
    this.push({ type: 'event', e });
  }
  lifecycle(_agentId: string, e: LifecycleEvent): void {
    this.push({ type: 'lifecycle', e });
  }
  requestPermission(): Promise<PermissionOutcome> {
    return Promise.resolve({ outcome: 'cancelled' });
  }
  report(_agentId: string, message: string, severity: 'error' | 'warning' | 'info'): void {
    this.push({ type: 'report', message, severity });
  }
  now(): number {
    return this.clock;
  }

  schedule(fn: () => void, ms: number): IDisposable {
    const s: Scheduled = { fn, ms, disposed: false };
    this.scheduled.push(s);
    return {
      dispose: () => {
        s.disposed = true;
      },
    };
  }

  // ---------------------------------------------------------------- for the tests

  /** Position in the log: wait for what happens after it. */
  mark(): number {
    return this.log.length;
  }

  /** The first entry at or after `from` (already logged or future) that matches. */
  waitFor(pred: (x: Entry) => boolean, from = 0): Promise<Entry> {
    const seen = this.log.slice(from).find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ from, pred, resolve }));
  }

  waitStatus(status: AgentStatus, from: number): Promise<Entry> {
    return this.waitFor((x) => x.type === 'lifecycle' && x.e.kind === 'status' && x.e.status === status, from);
  }

  waitEvent(pred: (e: SessionEvent) => boolean, from: number): Promise<SessionEvent> {
    return this.waitFor((x) => x.type === 'event' && pred(x.e), from).then((x) => (x as { e: SessionEvent }).e);
  }

  /** Entries after `from`, narrowed. */
  events(from = 0): SessionEvent[] {
    return this.log.slice(from).flatMap((x) => (x.type === 'event' ? [x.e] : []));
  }
  lifecycles(from = 0): LifecycleEvent[] {
    return this.log.slice(from).flatMap((x) => (x.type === 'lifecycle' ? [x.e] : []));
  }
  reports(from = 0): { message: string; severity: string }[] {
    return this.log.slice(from).flatMap((x) => (x.type === 'report' ? [{ message: x.message, severity: x.severity }] : []));
  }
  notices(sessionId: string, from = 0): string[] {
    return this.events(from).flatMap((e) => (e.kind === 'notice' && e.sessionId === sessionId ? [e.title] : []));
  }

  /** The process the supervisor runs now (the newest spawned). */
  get current(): ProcessEndpoint {
    const p = this.procs[this.procs.length - 1];
    if (!p) throw new Error('no agent process was spawned');
    return p;
  }

  /** Requests of `method` sent on the `n`-th connection (0-based). */
  sent(n: number, method: string): Record<string, unknown>[] {
    const r = this.recorders[n];
    if (!r) throw new Error(`no connection #${n}`);
    return r.sentRequests(method);
  }

  /** Kills every process still running, waits for them to end, and returns schema violations of what was sent. */
  async cleanup(): Promise<string[]> {
    for (const p of this.procs) p.kill();
    await Promise.all(this.procs.map((p) => p.closed));
    return this.recorders.flatMap((r) => {
      if (!r.wireLines.length) return [];
      const { version, violations } = r.violationsAsNegotiated();
      return violations.map((v) => `v${version}: ${JSON.stringify(v.message)}: ${v.problems.join('; ')}`);
    });
  }

  private push(x: Entry): void {
    this.log.push(x);
    const at = this.log.length - 1;
    for (const w of [...this.waiters]) {
      if (at >= w.from && w.pred(x)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(x);
      }
    }
  }
}
