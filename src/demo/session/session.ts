// One demo session: its persisted data, its history and the turn running in it (if any).

import type { Block, DemoEvent, HistoryRecord, PlanEntry, ToolState } from '../model';
import type { SessionView } from '../wire/wire';
import { History } from './history';
import type { ConfigValues } from './options';

/** What is stored (in memory, and as JSON under ACP_DEMO_STATE_DIR). */
export interface SessionData {
  sessionId: string;
  cwd: string;
  title?: string;
  /** `session/archive` (v2): listed only when asked for archived sessions. */
  archived?: boolean;
  updatedAt: string;
  modeId: string;
  config: ConfigValues;
  /** Counter for agent-assigned ids (messages, tool calls, terminals). */
  counter: number;
  history: HistoryRecord[];
}

/** The part of a running turn the session needs to know about. */
export interface ActiveTurn {
  cancel(): void;
  /** `_session/steering` into this turn (src/demo/steering.ts). */
  steer(blocks: Block[]): object;
  /** Stops the turn without telling the client anything more (the session was closed). */
  silence(): void;
}

export class DemoSession implements SessionView {
  readonly history: History;
  turn: ActiveTurn | undefined;

  constructor(readonly data: SessionData) {
    this.history = new History(data.history);
  }

  get sessionId(): string {
    return this.data.sessionId;
  }

  get cwd(): string {
    return this.data.cwd;
  }

  /** A fresh agent-assigned id, unique in this session (also across restarts with a state dir). */
  nextId(prefix: string): string {
    this.data.counter += 1;
    return `${prefix}_${this.data.counter}`;
  }

  /** Records an event in the history; returns true when it created a tool call. */
  apply(event: DemoEvent): boolean {
    if (event.kind === 'info') {
      if (event.title !== undefined) this.data.title = event.title;
      if (event.updatedAt !== undefined) this.data.updatedAt = event.updatedAt;
    }
    if (event.kind === 'mode') this.data.modeId = event.modeId;
    return this.history.apply(event);
  }

  tool(toolCallId: string): ToolState | undefined {
    return this.history.tool(toolCallId);
  }

  itemsPlans(): PlanEntry[][] {
    return this.history.itemsPlans();
  }
}
