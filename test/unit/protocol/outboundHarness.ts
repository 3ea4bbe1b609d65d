// Test harness for connect()/negotiation tests: runs a scripted agent (test/agents) as a real
// child process over real pipes, connects to it with an OutboundRecorder as the logger, and
// collects the session events. killAgents() (every test's afterEach) also checks that everything
// each connection of the test sent validates against the schema of the version it negotiated,
// whether or not the test asserted it itself.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AcpConnection, ClientHandlers, ConnectOptions } from '../../../src/protocol/api';
import { connect } from '../../../src/protocol/connect';
import type { SessionEvent } from '../../../src/protocol/domain';
import { OutboundRecorder } from './outbound';

/**
 * The bundled scripted agent (out/test/agents, next to the bundled tests), copied once to a
 * private temp dir when the tests load: other builds in the same tree recreate out/test while
 * these tests run, and the agent must not vanish between two spawns.
 */
export const SCRIPTED_AGENT = privateCopy(path.join(__dirname, '..', '..', 'agents', 'scriptedAgent.js'));

function privateCopy(file: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-test-agent-'));
  const copy = path.join(dir, path.basename(file));
  fs.writeFileSync(copy, fs.readFileSync(file));
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  return copy;
}

export interface AgentOptions {
  noise?: boolean;
  crlf?: boolean;
  batch?: boolean;
  promptMessageId?: boolean;
  ignoreCaps?: boolean;
}

export class AgentProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stderr = '';
  readonly exited: Promise<number | null>;

  constructor(mode: string, options: AgentOptions = {}) {
    this.child = spawn(process.execPath, [SCRIPTED_AGENT, mode, JSON.stringify(options)], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (s: string) => {
      this.stderr += s;
    });
    this.exited = new Promise((resolve) => this.child.on('exit', (code) => resolve(code)));
  }

  kill(): void {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill();
  }
}

/** Session events in arrival order, with a way to wait for one. */
export class EventLog {
  readonly events: SessionEvent[] = [];
  private waiters: { pred: (e: SessionEvent) => boolean; resolve: (e: SessionEvent) => void }[] = [];

  readonly push = (e: SessionEvent): void => {
    this.events.push(e);
    for (const w of [...this.waiters]) {
      if (w.pred(e)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(e);
      }
    }
  };

  /** The first event (already seen or future) that matches. */
  waitFor(pred: (e: SessionEvent) => boolean): Promise<SessionEvent> {
    const seen = this.events.find(pred);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ pred, resolve }));
  }

  /** Texts of the agent's text chunks, in order. */
  agentTexts(): string[] {
    return this.events.flatMap((e) => (e.kind === 'message_chunk' && e.role === 'agent' && e.content.type === 'text' ? [e.content.text] : []));
  }

  waitForAgentText(prefix: string): Promise<string> {
    return this.waitFor((e) => e.kind === 'message_chunk' && e.role === 'agent' && e.content.type === 'text' && e.content.text.startsWith(prefix)).then((e) =>
      e.kind === 'message_chunk' && e.content.type === 'text' ? e.content.text : '',
    );
  }
}

export interface Harness {
  agent: AgentProcess;
  recorder: OutboundRecorder;
  log: EventLog;
  connecting: Promise<AcpConnection>;
}

const live: AgentProcess[] = [];
const recorders: OutboundRecorder[] = [];

/** Spawns the agent and starts connect(); handlers default to "allow" permissions. */
export function start(
  mode: string,
  opts: {
    agent?: AgentOptions;
    connect?: Partial<Omit<ConnectOptions, 'handlers'>>;
    handlers?: Partial<ClientHandlers>;
  } = {},
): Harness {
  const agent = new AgentProcess(mode, opts.agent);
  live.push(agent);
  const recorder = new OutboundRecorder();
  recorders.push(recorder);
  const log = new EventLog();
  const handlers: ClientHandlers = {
    onEvent: log.push,
    requestPermission: () => Promise.resolve({ outcome: 'selected', optionId: 'allow' }),
    ...opts.handlers,
  };
  const connecting = connect(
    { readable: agent.child.stdout, writable: agent.child.stdin },
    {
      protocol: 'auto',
      clientInfo: { name: 'acp-plans-tests', title: 'ACP Plans tests', version: '0.0.1' },
      logger: recorder.logger,
      ...opts.connect,
      handlers,
    },
  );
  return { agent, recorder, log, connecting };
}

/**
 * Kills every agent the tests started that is still running, then throws if any message the
 * test's connections sent does not validate against the schema of their negotiated version
 * (call from afterEach).
 */
export function killAgents(): void {
  for (const a of live.splice(0)) a.kill();
  const problems = recorders.splice(0).flatMap((r) => {
    const { version, violations } = r.violationsAsNegotiated();
    return violations.map((v) => `v${version}: ${JSON.stringify(v.message)}\n  ${v.problems.join('\n  ')}`);
  });
  if (problems.length) throw new Error(`${problems.length} outbound message(s) do not match the official schema:\n${problems.join('\n')}`);
}
