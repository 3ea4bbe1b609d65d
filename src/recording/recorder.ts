// Recording an agent's traffic for a bug report: every wire message of the agent's connections,
// both directions, REDACTED (agents/redact.ts, as the ACP Trace channel), with its time, to a
// `.jsonl` file (format.ts), until stopped or MAX_RECORDING_BYTES.
//
// Each connection gets a tap (`AgentRecorders.tap`, hooked where the trace is: the protocol
// logger's wire hook). While no recording is on, a tap only remembers its connection's
// `initialize` exchange (a few messages) and looks up one map entry per message; a recording
// started later writes that exchange first, so the file can still be decoded (the version).
// Writes go through one append stream (in wire order, off the hot path, never one sync write
// per message). Restarts of the agent keep recording (each new connection's `initialize` is in
// the file). No `vscode`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redact } from '../agents/redaction';
import { headerLine, messageLine, MAX_RECORDING_BYTES, type Direction, type RecordingHeader } from './format';

export type WireTap = (direction: Direction, message: unknown) => void;

export interface RecordingSummary {
  readonly file: string;
  readonly messages: number;
  readonly bytes: number;
  /** Stopped at the size limit. */
  readonly truncated: boolean;
  /** Why writing failed, if it did. */
  readonly error?: string;
}

interface Captured {
  readonly dir: Direction;
  readonly msg: unknown;
  readonly time: number;
}

/** The initialize exchange of a connection: requests, refusals, retries and the answer. */
const MAX_CAPTURED = 6;

export class TrafficRecorder {
  private readonly stream: fs.WriteStream;
  private bytes = 0;
  private messages = 0;
  private truncated = false;
  private error: string | undefined;
  private stopped = false;
  private closed: Promise<RecordingSummary> | undefined;

  /** Creates `file` (never overwrites one) and writes the header. `onStopped`: the limit or an error stopped it. */
  constructor(
    readonly file: string,
    header: Omit<RecordingHeader, 'format'>,
    private readonly maxBytes = MAX_RECORDING_BYTES,
    private readonly onStopped?: (s: RecordingSummary) => void,
  ) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    this.stream = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
    this.stream.on('error', (err) => {
      this.error ??= err.message;
      this.stop();
    });
    this.append(headerLine(header));
  }

  write(dir: Direction, msg: unknown, time: number): void {
    if (this.stopped) return;
    let line: string;
    try {
      line = messageLine(dir, redact(msg), time);
    } catch {
      return; // not JSON-able (never for a parsed wire message)
    }
    if (this.bytes + Buffer.byteLength(line) > this.maxBytes) {
      this.truncated = true;
      this.stop();
      return;
    }
    this.append(line);
    this.messages++;
  }

  get summary(): RecordingSummary {
    return { file: this.file, messages: this.messages, bytes: this.bytes, truncated: this.truncated, ...(this.error ? { error: this.error } : {}) };
  }

  /** Flushes and closes the file (idempotent). */
  close(): Promise<RecordingSummary> {
    this.stopped = true;
    this.closed ??= new Promise((resolve) => {
      if (this.stream.destroyed) {
        resolve(this.summary);
        return;
      }
      this.stream.end(() => resolve(this.summary));
      this.stream.once('error', () => resolve(this.summary));
    });
    return this.closed;
  }

  private append(line: string): void {
    this.bytes += Buffer.byteLength(line);
    this.stream.write(line);
  }

  private stop(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.onStopped?.(this.summary);
  }
}

/** The recordings of all agents, and the taps of their connections. */
export class AgentRecorders {
  private readonly active = new Map<string, TrafficRecorder>();
  /** Each agent's latest connection's initialize exchange. */
  private readonly inits = new Map<string, Captured[]>();

  constructor(
    private readonly isInitialize: (method: unknown) => boolean,
    private readonly now: () => number = Date.now,
  ) {}

  isRecording(agentId: string): boolean {
    return this.active.has(agentId);
  }
  recording(agentId: string): TrafficRecorder | undefined {
    return this.active.get(agentId);
  }
  agentIds(): string[] {
    return [...this.active.keys()];
  }

  /** The wire hook of one new connection of `agentId`. */
  tap(agentId: string): WireTap {
    let captured: Captured[] | undefined;
    let initDone = false;
    const initIds = new Set<unknown>();
    return (dir, message) => {
      const time = this.now();
      if (!initDone) {
        const m = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
        if (dir === 'send' && this.isInitialize(m.method)) {
          if (!captured) {
            captured = [];
            this.inits.set(agentId, captured);
          }
          initIds.add(m.id);
        } else if (!(dir === 'receive' && m.method === undefined && initIds.has(m.id))) {
          initDone = true; // the exchange is over (or there was none)
        }
        if (!initDone && captured && captured.length < MAX_CAPTURED) captured.push({ dir, msg: message, time });
      }
      try {
        this.active.get(agentId)?.write(dir, message, time);
      } catch {
        // A recording never breaks the connection it records.
      }
    };
  }

  /**
   * Starts recording `agentId` into `file`. `connected`: the agent has a connection now, whose
   * initialize exchange (already past) is written first.
   */
  start(
    agentId: string,
    file: string,
    header: Omit<RecordingHeader, 'format'>,
    connected: boolean,
    onStopped?: (s: RecordingSummary) => void,
    maxBytes?: number,
  ): TrafficRecorder {
    if (this.active.has(agentId)) throw new Error(`Agent "${agentId}" is already being recorded.`);
    const rec = new TrafficRecorder(file, header, maxBytes, onStopped);
    if (connected) for (const c of this.inits.get(agentId) ?? []) rec.write(c.dir, c.msg, c.time);
    this.active.set(agentId, rec);
    return rec;
  }

  /** Stops recording `agentId`; the file's summary once flushed (undefined when it was not recording). */
  async stop(agentId: string): Promise<RecordingSummary | undefined> {
    const rec = this.active.get(agentId);
    if (!rec) return undefined;
    this.active.delete(agentId);
    return rec.close();
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.agentIds().map((id) => this.stop(id)));
  }
}
