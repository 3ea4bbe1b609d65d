// A bridge process of the remote agent tests (test/agents/wsBridge.ts, httpBridge.ts), seen from a
// test: it starts in standby (it listens once `listen()` is called, so it can take the port the
// moment the last one died) and reports what it did as JSON lines on stdout: the prompts it passed
// on, the one it died on, a huge frame sent, a connection frozen.
import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import { withSetting } from './demo';
import { EXT_ID, waitFor, type TestApi } from './ext';

export interface PromptSeen {
  key?: string;
  text?: string;
}

type Said = { ready?: boolean; listening?: number; prompt?: PromptSeen; dying?: PromptSeen; huge?: number; frozen?: boolean; silent?: boolean };

export class Bridge {
  readonly prompts: PromptSeen[] = [];
  diedOn: PromptSeen | undefined;
  readonly exited: Promise<void>;
  readonly ready: Promise<void>;
  readonly port: Promise<number>;
  private readonly child: ChildProcess;
  private readonly listeners: ((m: Said) => void)[] = [];

  /** `script`: a file of out/test/agents (wsBridge.js, httpBridge.js). */
  constructor(env: Record<string, string>, script = 'wsBridge.js') {
    this.child = spawn(process.execPath, [path.join(__dirname, '..', 'agents', script)], {
      env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', BRIDGE_STANDBY: '1', ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    let buf = '';
    let listening: (p: number) => void = () => undefined;
    let ready: () => void = () => undefined;
    this.port = new Promise((r) => (listening = r));
    this.ready = new Promise((r) => (ready = r));
    this.child.stdout!.setEncoding('utf8');
    this.child.stdout!.on('data', (c: string) => {
      buf += c;
      for (let nl = buf.indexOf('\n'); nl !== -1; nl = buf.indexOf('\n')) {
        const m = JSON.parse(buf.slice(0, nl)) as Said;
        buf = buf.slice(nl + 1);
        if (m.ready) ready();
        if (m.listening) listening(m.listening);
        if (m.prompt) this.prompts.push(m.prompt);
        if (m.dying) this.diedOn = m.dying;
        for (const l of this.listeners) l(m);
      }
    });
    this.exited = new Promise((r) => this.child.on('exit', () => r()));
  }

  /** Resolves with the first line from now on that `pick` accepts. */
  next<T>(pick: (m: Said) => T | undefined): Promise<T> {
    return new Promise((resolve) => {
      const l = (m: Said): void => {
        const v = pick(m);
        if (v === undefined) return;
        this.listeners.splice(this.listeners.indexOf(l), 1);
        resolve(v);
      };
      this.listeners.push(l);
    });
  }

  listen(): Promise<number> {
    this.child.stdin!.write('listen\n');
    return this.port;
  }

  kill(): Promise<void> {
    this.child.kill('SIGKILL');
    return this.exited;
  }
}

/**
 * The bed of a remote agent suite: a state folder, the serving bridge on a port of its own and the
 * standby ones that take that port when it dies, the token stored as an agent secret, `acp.agents`
 * set to the suite's entries; `dispose()` stops the agents and undoes all of it.
 */
export class RemoteBed {
  dir = '';
  port = 0;
  live!: Bridge;
  private readonly bridges: Bridge[] = [];
  private readonly restore: (() => Promise<void>)[] = [];

  constructor(
    private readonly script: 'wsBridge.js' | 'httpBridge.js',
    readonly token: string,
  ) {}

  /** Serves, stores `secret`, sets `acp.agents` to `entries(port)` and waits until `agentId` is defined. */
  async setUp(a: TestApi, secret: string, agentId: string, entries: (port: number) => unknown[]): Promise<void> {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-remote-'));
    this.live = await this.standby();
    this.port = await this.live.listen();
    assert.strictEqual(await vscode.commands.executeCommand('acp.setAgentSecret', secret, this.token), true);
    this.restore.push(() => Promise.resolve(vscode.commands.executeCommand('acp.setAgentSecret', secret, '')).then(() => undefined));
    this.restore.push(await withSetting('agents', entries(this.port)));
    await waitFor(a.internals.agents.onDidChangeDefinitions, () => !!a.internals.agents.get(agentId), 10000, `${agentId} from acp.agents`);
    await vscode.commands.executeCommand('workbench.view.extension.acp');
  }

  /** Where the bridge is told to die on the next prompt (it reads the marker text from this file). */
  get dieOn(): string {
    return path.join(this.dir, 'die-on');
  }

  /** A bridge ready to take the port (the same one after the first). */
  async standby(): Promise<Bridge> {
    const b = new Bridge(
      {
        BRIDGE_PORT: String(this.port),
        BRIDGE_AGENT: path.join(vscode.extensions.getExtension(EXT_ID)!.extensionPath, 'dist', 'demo-agent.js'),
        BRIDGE_TOKEN: this.token,
        BRIDGE_DIE_ON: this.dieOn,
        ACP_DEMO_STATE_DIR: path.join(this.dir, 'state'),
        ACP_DEMO_DELAY_MS: '0',
      },
      this.script,
    );
    this.bridges.push(b);
    await b.ready;
    return b;
  }

  /** Kills the bridge serving now; the next one takes the port at once (as a restarted server). */
  async replace(): Promise<{ dead: Bridge; next: Bridge }> {
    const next = await this.standby();
    const dead = this.live;
    await dead.kill();
    this.live = next;
    await next.listen();
    return { dead, next };
  }

  async dispose(a: TestApi | undefined, agentIds: readonly string[]): Promise<void> {
    for (const id of agentIds) if (a?.internals.agents.get(id)?.status === 'running') await vscode.commands.executeCommand('acp.stopAgent', id);
    for (const b of this.bridges) await b.kill();
    for (const r of this.restore.reverse()) await r();
    if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
