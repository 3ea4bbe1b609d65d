// What happens to sessions, as one subscription: every event after the stores applied it, every
// file the client wrote for an agent, every chunk of a client terminal's output, every permission
// asked and answered, and the moment before a turn starts. Features (history, checkpoints, team…)
// subscribe themselves; the composition root fires, in arrival order, and never fans out by hand.
// Free of `vscode` (plain Node under unit tests).
import type { IDisposable } from '../common/lifecycle';
import type { PermissionOutcome, PermissionRequest, SessionEvent } from '../protocol/domain';
import { Emitter } from '../state/emitter';
import type { SessionKey } from '../state/sessionStore';

export interface AppliedEvent {
  readonly agentId: string;
  readonly event: SessionEvent;
  /** When it arrived (ms since the epoch). */
  readonly t: number;
}

/** A file the client wrote for an agent (fs/write_text_file), with its text before (null: created). */
export interface ClientWrite {
  readonly agentId: string;
  readonly sessionId: string;
  readonly path: string;
  readonly before: string | null;
  readonly after: string;
  readonly t: number;
}

export interface TerminalOutput {
  readonly agentId: string;
  readonly sessionId: string;
  readonly terminalId: string;
  readonly text: string;
  /** Once, with the last chunk. */
  readonly exit?: { exitCode: number | null; signal: string | null };
  readonly t: number;
}

export interface AskedPermission {
  readonly agentId: string;
  readonly sessionId: string;
  readonly id: string;
  readonly request: PermissionRequest;
  readonly flags: readonly string[];
  readonly t: number;
}

export interface AnsweredPermission {
  readonly agentId: string;
  readonly sessionId: string;
  readonly id: string;
  readonly outcome: PermissionOutcome;
  readonly t: number;
}

/** Something to finish before a turn's prompt is sent (a checkpoint of the workspace). */
export type TurnParticipant = (ref: SessionKey) => Promise<void> | undefined;

export class SessionEvents implements IDisposable {
  private readonly applied: Emitter<AppliedEvent>;
  private readonly replayed: Emitter<AppliedEvent>;
  private readonly wrote: Emitter<ClientWrite>;
  private readonly output: Emitter<TerminalOutput>;
  private readonly asked: Emitter<AskedPermission>;
  private readonly answered: Emitter<AnsweredPermission>;
  private participants: readonly TurnParticipant[] = [];

  constructor(onListenerError: (err: unknown) => void) {
    this.applied = new Emitter(onListenerError);
    this.replayed = new Emitter(onListenerError);
    this.wrote = new Emitter(onListenerError);
    this.output = new Emitter(onListenerError);
    this.asked = new Emitter(onListenerError);
    this.answered = new Emitter(onListenerError);
  }

  /** An event the stores have applied (an agent's, a replayed one, or one the client made: a declared or approved plan, a notice). */
  readonly onDidApply = (l: (e: AppliedEvent) => void): IDisposable => this.applied.event(l);
  /** An event of a stored session that the history replayed into the stores, at the time it was recorded (nothing records it again). */
  readonly onDidReplay = (l: (e: AppliedEvent) => void): IDisposable => this.replayed.event(l);
  readonly onDidWrite = (l: (e: ClientWrite) => void): IDisposable => this.wrote.event(l);
  readonly onDidTerminalOutput = (l: (e: TerminalOutput) => void): IDisposable => this.output.event(l);
  /** A permission request shown to the user, or answered without asking (then with its flags). */
  readonly onDidAskPermission = (l: (e: AskedPermission) => void): IDisposable => this.asked.event(l);
  readonly onDidAnswerPermission = (l: (e: AnsweredPermission) => void): IDisposable => this.answered.event(l);

  /** Adds a participant the next turns wait for (at most the caller's limit: SessionActions bounds it). */
  onWillStartTurn(p: TurnParticipant): IDisposable {
    this.participants = [...this.participants, p];
    return { dispose: () => (this.participants = this.participants.filter((x) => x !== p)) };
  }

  /** What a turn waits for before its prompt goes out: every participant's work. */
  willStartTurn(ref: SessionKey): Promise<void> {
    return Promise.all(this.participants.map((p) => p(ref))).then(() => undefined);
  }

  fireApplied(e: AppliedEvent): void {
    this.applied.fire(e);
  }
  fireReplayed(e: AppliedEvent): void {
    this.replayed.fire(e);
  }
  fireWrite(e: ClientWrite): void {
    this.wrote.fire(e);
  }
  fireTerminalOutput(e: TerminalOutput): void {
    this.output.fire(e);
  }
  fireAsked(e: AskedPermission): void {
    this.asked.fire(e);
  }
  fireAnswered(e: AnsweredPermission): void {
    this.answered.fire(e);
  }

  dispose(): void {
    for (const e of [this.applied, this.replayed, this.wrote, this.output, this.asked, this.answered]) e.dispose();
    this.participants = [];
  }
}
