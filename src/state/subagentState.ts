// Pure reducers for what a session knows about subagents and background work: the child's
// association (set by `subagent_update` on its parent), the `background` snapshot of its state
// updates, and which of its terminals and tool calls the agent lets the client cancel. Used by
// the SessionStore (the one owner of this state), with the caps on how many children it keeps.
// Free of `vscode`.
import type { BackgroundWork, SessionEvent } from '../protocol/domain';

/** What a parent told about one of its child sessions. */
export interface SubagentInfo {
  readonly description?: string;
  /** The agent lets the client cancel the child's current work (`capabilities.cancel`). */
  readonly cancellable: boolean;
  /** The child's state as mirrored on its parent (undefined: not reported). */
  readonly state?: string;
}

/** Terminals and tool calls of a session whose controls currently offer cancel. */
export interface Controls {
  readonly terminals: readonly string[];
  readonly toolCalls: readonly string[];
}

/** At most this many cancellable ids are kept per kind and session (the oldest are forgotten). */
export const MAX_CONTROLS = 256;
/** At most this many background items are kept from one snapshot. */
export const MAX_BACKGROUND = 256;

const FINAL_TOOL_STATUS = new Set(['completed', 'failed', 'cancelled']);

type SubagentEvent = Extract<SessionEvent, { kind: 'subagent' }>;

/** The child's association after a `subagent_update` (omitted fields unchanged, null clears). */
export function applySubagent(prev: SubagentInfo | undefined, e: SubagentEvent): SubagentInfo {
  const next: { description?: string; cancellable: boolean; state?: string } = { cancellable: prev?.cancellable ?? false };
  const description = e.description === undefined ? prev?.description : (e.description ?? undefined);
  if (description !== undefined) next.description = description;
  if (e.capabilities !== undefined) next.cancellable = e.capabilities?.cancel === true;
  const state = e.state === undefined ? prev?.state : (e.state ?? undefined);
  if (state !== undefined) next.state = state;
  return next;
}

/** A background snapshot as kept: bounded; undefined when not reported. */
export function keptBackground(list: readonly BackgroundWork[] | null | undefined): readonly BackgroundWork[] | undefined {
  if (!list) return undefined;
  return list.length > MAX_BACKGROUND ? list.slice(0, MAX_BACKGROUND) : list;
}

/** The session's controls after a tool call or terminal event; the same object when nothing changed. */
export function applyControls(prev: Controls | undefined, e: SessionEvent): Controls | undefined {
  if (e.kind === 'tool_call') {
    const caps = e.fields.capabilities;
    const ended = typeof e.fields.status === 'string' && FINAL_TOOL_STATUS.has(e.fields.status);
    if (caps === undefined && !ended) return prev;
    return withId(prev, 'toolCalls', e.toolCallId, caps?.cancel === true && !ended);
  }
  if (e.kind === 'terminal_update') {
    const ended = e.exitStatus != null;
    if (e.capabilities === undefined && !ended) return prev;
    const offered = e.capabilities === undefined ? prev?.terminals.includes(e.terminalId) === true : e.capabilities?.cancel === true;
    return withId(prev, 'terminals', e.terminalId, offered && !ended);
  }
  return prev;
}

function withId(prev: Controls | undefined, key: keyof Controls, id: string, on: boolean): Controls | undefined {
  const list = prev?.[key] ?? [];
  const has = list.includes(id);
  if (has === on) return prev;
  let next = on ? [...list, id] : list.filter((x) => x !== id);
  if (next.length > MAX_CONTROLS) next = next.slice(next.length - MAX_CONTROLS);
  const out: Controls = { terminals: prev?.terminals ?? [], toolCalls: prev?.toolCalls ?? [], [key]: next };
  return out.terminals.length || out.toolCalls.length ? out : undefined;
}

/** Whether the agent offers cancel for this background item now. */
export function canCancel(controls: Controls | undefined, item: BackgroundWork): boolean {
  if (item.type === 'terminal') return controls?.terminals.includes(item.terminalId) === true;
  if (item.type === 'tool_call') return controls?.toolCalls.includes(item.toolCallId) === true;
  return false;
}

/** Child sessions (subagents) kept per parent session and per agent; announcements past them are ignored. */
export const MAX_CHILDREN_PER_SESSION = 100;
export const MAX_CHILDREN_PER_AGENT = 500;

/** How many children each parent and each agent has, against the caps. O(1) per child. */
export class ChildCaps {
  /** agentId → parent sessionId → children kept. */
  private readonly counts = new Map<string, Map<string, number>>();
  private readonly totals = new Map<string, number>();

  constructor(
    private readonly perSession = MAX_CHILDREN_PER_SESSION,
    private readonly perAgent = MAX_CHILDREN_PER_AGENT,
  ) {}

  /** Counts a new child of `parent`; or, over a cap, counts nothing and says which (`text` follows the agent's name). */
  admit(agentId: string, parent: string): { cap: string; text: string } | undefined {
    const mine = this.counts.get(agentId)?.get(parent) ?? 0;
    if (mine >= this.perSession) {
      return { cap: 'children per session', text: `announced more than ${this.perSession} subagent sessions in one session; the further ones are ignored.` };
    }
    if ((this.totals.get(agentId) ?? 0) >= this.perAgent) {
      return { cap: 'children per agent', text: `announced more than ${this.perAgent} subagent sessions; the further ones are ignored.` };
    }
    this.count(agentId, parent, 1);
    return undefined;
  }

  /** A child of `parent` was removed. */
  removed(agentId: string, parent: string): void {
    this.count(agentId, parent, -1);
  }

  private count(agentId: string, parent: string, delta: number): void {
    let m = this.counts.get(agentId);
    if (!m) this.counts.set(agentId, (m = new Map()));
    const n = (m.get(parent) ?? 0) + delta;
    if (n > 0) m.set(parent, n);
    else m.delete(parent);
    this.totals.set(agentId, Math.max(0, (this.totals.get(agentId) ?? 0) + delta));
  }
}
