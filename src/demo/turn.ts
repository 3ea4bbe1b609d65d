// A prompt turn: what a scenario uses to talk to the client. It records every event in the
// session history, renders it for the spoken version, paces the script, and stops at cancel.

import type { Block, DemoEvent, PermissionAsk, PermissionOutcome, ProtocolVersion, ToolPatch } from './model';
import type { DemoSession } from './session/session';
import { parseOutcome, type Wire } from './wire/wire';
import { backgroundOf } from './scenarios/backgroundWork';
import { steerTurn, type SteerAnswer } from './steering';

/** Thrown out of a scenario once the turn was cancelled. */
export class TurnCancelled extends Error {
  constructor() {
    super('turn cancelled');
  }
}

/** v1 client services the client advertised. v2 has none. */
export interface ClientServices {
  readTextFile: boolean;
  writeTextFile: boolean;
  terminal: boolean;
}

export interface TurnHost {
  readonly wire: Wire;
  readonly services: ClientServices;
  /** Base pause between scripted steps, in ms (0: just yield to the event loop). */
  readonly delayMs: number;
  notify(method: string, params: object): void;
  request(method: string, params: object): Promise<unknown>;
  log(text: string): void;
  /** Flushes stdout, then exits the process with `code`. */
  exit(code: number): Promise<never>;
}

const DONE = new Set(['completed', 'failed', 'cancelled']);

export class Turn {
  private cancelled = false;
  private silenced = false;
  private finished = false;
  private wake: (() => void) | undefined;
  private readonly touchedTools = new Set<string>();
  private rejectCancelled: (() => void) | undefined;
  /** Rejects with TurnCancelled on cancel: requests to the client race it. */
  private readonly cancelledSignal = new Promise<never>((_resolve, reject) => {
    this.rejectCancelled = () => reject(new TurnCancelled());
  });

  constructor(
    readonly session: DemoSession,
    private readonly host: TurnHost,
  ) {
    this.cancelledSignal.catch(() => undefined); // nobody may be racing it when it fires
  }

  get version(): ProtocolVersion {
    return this.host.wire.version;
  }

  get services(): ClientServices {
    return this.host.services;
  }

  /** The configured pause between scripted steps, in ms. */
  get delayMs(): number {
    return this.host.delayMs;
  }

  get cwd(): string {
    return this.session.cwd;
  }

  get isCancelled(): boolean {
    return this.cancelled;
  }

  log(text: string): void {
    this.host.log(text);
  }

  exit(code: number): Promise<never> {
    return this.host.exit(code);
  }

  /** Set by a scenario that refuses steering: the reason `_session/steering` answers. */
  refuseSteer: string | undefined;

  /** Input steered into this turn (`_session/steering`): taken and answered in the turn, or refused. */
  steer(blocks: Block[]): SteerAnswer {
    return steerTurn(this, blocks, this.refuseSteer);
  }

  cancel(): void {
    this.cancelled = true;
    this.wake?.();
    this.rejectCancelled?.();
  }

  /** The session was closed: stop, and send nothing more. */
  silence(): void {
    this.silenced = true;
    this.cancel();
  }

  /** After this, the turn sends nothing more. */
  finish(): void {
    this.finished = true;
  }

  get isSilenced(): boolean {
    return this.silenced;
  }

  /** Records the event and sends it as the spoken version's `session/update`s. */
  emit(event: DemoEvent): void {
    if (this.finished || this.silenced) return;
    // A session that reports background work includes it on every state update.
    const background = event.kind === 'state' && this.version === 2 ? backgroundOf(this.session.sessionId) : undefined;
    if (background && event.kind === 'state') event = { ...event, background };
    const created = this.session.apply(event);
    if (event.kind === 'tool') this.touchedTools.add(event.patch.toolCallId);
    for (const update of this.host.wire.live(event, this.session, created)) {
      this.host.notify('session/update', { sessionId: this.session.sessionId, update });
    }
  }

  /**
   * Sends one raw v2 `session/update` for any session id (a child session, or background work
   * after the turn ended); not recorded in the history. Nothing once the session was closed.
   */
  sendRaw(sessionId: string, update: object): void {
    if (this.silenced) return;
    this.host.notify('session/update', { sessionId, update });
  }

  /** Throws TurnCancelled once the turn was cancelled. */
  checkpoint(): void {
    if (this.cancelled) throw new TurnCancelled();
  }

  /** Waits `factor` × the configured delay (cancel wakes it), then checks for cancellation. */
  async pace(factor = 1): Promise<void> {
    this.checkpoint();
    const ms = Math.round(this.host.delayMs * factor);
    await new Promise<void>((resolve) => {
      const timer = ms > 0 ? setTimeout(resolve, ms) : undefined;
      if (!timer) setImmediate(resolve);
      this.wake = () => {
        if (timer) clearTimeout(timer);
        resolve();
      };
    });
    this.wake = undefined;
    this.checkpoint();
  }

  /** Waits until the turn is cancelled. */
  async untilCancelled(tick: () => void, everyMs: number): Promise<never> {
    for (;;) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, everyMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = undefined;
      this.checkpoint();
      tick();
    }
  }

  /** A fresh agent-assigned id in this session. */
  id(prefix: string): string {
    return this.session.nextId(prefix);
  }

  /** Sends one agent message (or thought) as chunks sharing one messageId. */
  say(chunks: string | string[], role: 'agent' | 'thought' = 'agent'): string {
    const messageId = this.id(role === 'agent' ? 'msg' : 'thought');
    for (const text of typeof chunks === 'string' ? [chunks] : chunks) {
      this.emit({ kind: 'message', role, messageId, blocks: [{ type: 'text', text }] });
    }
    return messageId;
  }

  tool(patch: ToolPatch): void {
    this.emit({ kind: 'tool', patch });
  }

  /** Echoes the prompt as the user message (v2 sends it; v1 only records it). */
  userMessage(blocks: Block[]): void {
    this.emit({ kind: 'message', role: 'user', messageId: this.id('msg'), blocks });
  }

  /**
   * Asks the client for permission. v2: `requires_action` while waiting, `running` after.
   * A v1 request needs a tool call: it is created first if the client has not seen it yet.
   */
  async requestPermission(ask: PermissionAsk): Promise<PermissionOutcome> {
    this.checkpoint();
    if (ask.toolCall) {
      if (this.version === 1 && !this.session.tool(ask.toolCall.toolCallId)) this.tool(ask.toolCall);
      else this.session.apply({ kind: 'tool', patch: ask.toolCall }); // v2: the subject is applied as an upsert
      this.touchedTools.add(ask.toolCall.toolCallId);
    }
    this.emit({ kind: 'state', state: 'requires_action' });
    const request = this.host.request('session/request_permission', this.host.wire.permissionParams(this.session.sessionId, ask)).catch((err: unknown) => {
      this.log(`permission request failed: ${String(err)}`);
      return undefined; // not an approval
    });
    // On cancel the client answers `cancelled`; the turn does not wait for that answer.
    const result = await Promise.race([request, this.cancelledSignal]);
    this.checkpoint();
    this.emit({ kind: 'state', state: 'running' });
    return parseOutcome(result);
  }

  /**
   * Asks the user through the client (`elicitation/create`, session-scoped). v2: `requires_action`
   * while waiting, `running` after. Resolves with the client's result (undefined if it failed).
   */
  async elicit(params: object): Promise<unknown> {
    this.emit({ kind: 'state', state: 'requires_action' });
    const result = await this.clientRequest('elicitation/create', params).catch((err: unknown) => {
      if (err instanceof TurnCancelled) throw err;
      this.log(`elicitation failed: ${String(err)}`);
      return undefined;
    });
    this.emit({ kind: 'state', state: 'running' });
    return result;
  }

  /** A notification to the client (e.g. `elicitation/complete`). */
  notifyClient(method: string, params: object): void {
    this.checkpoint();
    this.host.notify(method, params);
  }

  /**
   * A request to the client (v1 fs / terminal methods). Refused once the turn was cancelled,
   * unless `evenIfCancelled` (clean-up such as terminal/kill).
   */
  clientRequest(method: string, params: object, evenIfCancelled = false): Promise<unknown> {
    if (!evenIfCancelled) this.checkpoint();
    const request = this.host.request(method, { sessionId: this.session.sessionId, ...params });
    if (evenIfCancelled) return request;
    request.catch(() => undefined); // if the cancel wins the race, a late failure is of no interest
    return Promise.race([request, this.cancelledSignal]);
  }

  /** Marks every tool call of this turn that has not finished as cancelled. */
  cancelOpenTools(): void {
    for (const id of this.touchedTools) {
      const status = this.session.tool(id)?.status;
      if (!status || !DONE.has(status)) this.tool({ toolCallId: id, status: 'cancelled' });
    }
  }
}
