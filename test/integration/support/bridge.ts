// A bridge process of the remote agent tests (test/agents/wsBridge.ts, httpBridge.ts), seen from a
// test: it starts in standby (it listens once `listen()` is called, so it can take the port the
// moment the last one died) and reports what it did as JSON lines on stdout: the prompts it passed
// on, the one it died on, a huge frame sent, a connection frozen.
import { spawn, type ChildProcess } from 'child_process';
import * as path from 'path';

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
