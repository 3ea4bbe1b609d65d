// Echoes of steered input. Some agents (codex-acp on v2) show input steered into a running turn
// again once it lands in the turn: a user message under an id of their own with the same content,
// sent as chunks (one per block). The steered message this client shows already stands for it, so
// such an echo of a steer of the same turn is folded into it: each steer folds one echo, and only
// while its turn runs. A user message that starts like a steer but goes on differently is shown
// whole after all.
import type { ContentBlock, SessionEvent } from '../../protocol/domain';
import { messageItemId } from './ids';

type Chunk = Extract<SessionEvent, { kind: 'message_chunk' }>;

/** An echo being received: the steer's blocks and the chunks that matched so far. */
interface Echo {
  want: string[];
  seen: Chunk[];
}

/** The transcript the echoes are folded in: what it holds, and where chunks held back go after all. */
export interface EchoHost {
  item(itemId: string): unknown;
  apply(e: SessionEvent): void;
}

const keyOf = (b: ContentBlock): string => JSON.stringify(b);

export class SteerEchoes {
  /** The blocks (as keys) of each steer of the running turn not echoed yet. */
  private pending: string[][] = [];
  /** Echoes by the agent's message id. */
  private readonly echoes = new Map<string, Echo>();
  private running = false;
  /** Chunks held back are being applied after all. */
  private replaying = false;

  constructor(private readonly host: EchoHost) {}

  /** Notes steers and turns; true when `e` is (part of) an echo and is not to be shown. */
  fold(e: SessionEvent): boolean {
    if (this.replaying) return false;
    if (e.kind === 'state') {
      this.running = e.state !== 'idle';
      if (!this.running) this.forget();
      return false;
    }
    if (e.kind !== 'message' && e.kind !== 'message_chunk') return false;
    if (e.role !== 'user') return false;
    if (e.kind === 'message' && e.steered) {
      if (this.running && Array.isArray(e.content)) this.pending.push((e.content as ContentBlock[]).map(keyOf));
      return false;
    }
    if (e.kind === 'message_chunk') return this.chunk(e);
    if (this.echoes.has(e.messageId)) return true;
    if (!Array.isArray(e.content) || this.shown(e.messageId)) return false;
    const keys = (e.content as ContentBlock[]).map(keyOf);
    const at = this.pending.findIndex((want) => want.length === keys.length && want.every((k, i) => k === keys[i]));
    if (at < 0) return false;
    const [want] = this.pending.splice(at, 1);
    this.echoes.set(e.messageId, { want: want!, seen: [] });
    return true;
  }

  private chunk(e: Chunk): boolean {
    const key = keyOf(e.content);
    const echo = this.echoes.get(e.messageId);
    if (echo) {
      if (echo.want[echo.seen.length] === key) {
        echo.seen.push(e);
        return true;
      }
      // Not the steer after all: what was held back is shown, then this block as usual.
      this.echoes.delete(e.messageId);
      this.replay(echo.seen);
      return false;
    }
    if (this.shown(e.messageId)) return false;
    const at = this.pending.findIndex((want) => want[0] === key);
    if (at < 0) return false;
    const [want] = this.pending.splice(at, 1);
    this.echoes.set(e.messageId, { want: want!, seen: [e] });
    return true;
  }

  private shown(messageId: string): boolean {
    return this.host.item(messageItemId('user', messageId)) !== undefined;
  }

  private replay(chunks: Chunk[]): void {
    this.replaying = true;
    try {
      for (const c of chunks) this.host.apply(c);
    } finally {
      this.replaying = false;
    }
  }

  /** The turn ended: steers not echoed by now are not waited for; an echo cut short is shown. */
  private forget(): void {
    this.pending = [];
    const cutShort = [...this.echoes.values()].filter((echo) => echo.seen.length > 0 && echo.seen.length < echo.want.length);
    this.echoes.clear();
    for (const echo of cutShort) this.replay(echo.seen);
  }
}
