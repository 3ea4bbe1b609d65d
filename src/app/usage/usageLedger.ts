// What sessions used, kept as it streams: each turn's tokens (a prompt result's `usage`), each
// session's cost (`usage_update` carries the session's running total, so a day is charged what the
// total grew by that day) and its context window (used of size). Kept per session and local day,
// summed per session, per agent or per day for ACP: Show Usage, and written as CSV. It also keeps
// what a session used so far (the live meter on its row and in the status bar, updated as each
// report arrives, not when the turn ends) and each agent's newest rate limits (rateLimits.ts).
// Free of `vscode` (plain Node under unit tests); fed by the session events, live and replayed.
import type { SessionEvent } from '../../protocol/domain';
import { Emitter } from '../../state/emitter';
import { rateLimitsOf, type RateLimit } from './rateLimits';

export type UsageGrouping = 'session' | 'agent' | 'day';

export interface UsageTotals {
  turns: number;
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
  /** Cost by currency (an agent may report more than one). */
  costs: Record<string, number>;
}

export interface UsageRow extends UsageTotals {
  /** The session's, the agent's or the day's key (`YYYY-MM-DD`, local time). */
  readonly key: string;
  readonly agentId?: string;
  readonly sessionId?: string;
  readonly day?: string;
  /** The newest context window seen (a session's row only). */
  readonly context?: { readonly used: number; readonly size: number };
  /** When it was last used (ms since the epoch). */
  last: number;
}

interface SessionState {
  readonly agentId: string;
  readonly sessionId: string;
  /** The running total the agent reported last, per currency. */
  readonly reported: Map<string, number>;
  context?: { used: number; size: number };
  /** Everything counted for the session, every day. */
  readonly totals: UsageTotals;
}

/** What a session used so far: the live meter. */
export interface SessionUsage {
  readonly totals: Readonly<UsageTotals>;
  readonly context?: { readonly used: number; readonly size: number };
}

/** What changed: a session's usage, or (no session) an agent's rate limits. */
export interface UsageChange {
  readonly agentId: string;
  readonly sessionId?: string;
}

const empty = (): UsageTotals => ({ turns: 0, inputTokens: 0, outputTokens: 0, totalTokens: 0, costs: {} });

/** The local day of `t` as `YYYY-MM-DD`. */
export function localDay(t: number): string {
  const d = new Date(t);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

export class UsageLedger {
  private readonly sessions = new Map<string, SessionState>();
  /** Totals per session and day: `agent \0 session \0 day`. */
  private readonly cells = new Map<string, UsageTotals & { last: number }>();
  /** Per agent: its newest report of each rate-limit window. */
  private readonly limits = new Map<string, Map<string, RateLimit>>();
  private readonly _onDidChange = new Emitter<UsageChange>();
  readonly onDidChange = this._onDidChange.event;

  constructor(private readonly dayOf: (t: number) => string = localDay) {}

  /** Takes what `e` says of usage; other events change nothing. */
  apply(agentId: string, e: SessionEvent, t: number): void {
    if (e.kind === 'usage') this.reported(agentId, e, t);
    else if (e.kind === 'state' && e.state === 'idle' && e.stopReason) this.turnEnded(agentId, e.sessionId, e.usage ?? undefined, t);
  }

  /** Forgets a session (it was deleted), or every session of an agent. */
  forget(agentId: string, sessionId?: string): void {
    const match = (k: string): boolean => {
      const [a, s] = k.split('\0');
      return a === agentId && (sessionId === undefined || s === sessionId);
    };
    let changed = sessionId === undefined && this.limits.delete(agentId);
    for (const map of [this.sessions, this.cells] as Map<string, unknown>[]) for (const k of [...map.keys()]) if (match(k)) changed = map.delete(k) || changed;
    if (changed) this._onDidChange.fire(sessionId === undefined ? { agentId } : { agentId, sessionId });
  }

  /** What a session used so far (undefined: nothing reported). */
  session(agentId: string, sessionId: string): SessionUsage | undefined {
    return this.sessions.get(`${agentId}\0${sessionId}`);
  }

  /** The newest report of each rate-limit window, of one agent or of all, window by window. */
  rateLimits(agentId?: string): { agentId: string; limit: RateLimit }[] {
    const out: { agentId: string; limit: RateLimit }[] = [];
    for (const [a, m] of this.limits) if (agentId === undefined || a === agentId) for (const limit of m.values()) out.push({ agentId: a, limit });
    return out;
  }

  rows(by: UsageGrouping): UsageRow[] {
    const out = new Map<string, UsageRow>();
    for (const [k, c] of this.cells) {
      const [agentId, sessionId, day] = k.split('\0') as [string, string, string];
      const key = by === 'session' ? `${agentId}\0${sessionId}` : by === 'agent' ? agentId : day;
      let row = out.get(key);
      if (!row) {
        const context = by === 'session' ? this.sessions.get(`${agentId}\0${sessionId}`)?.context : undefined;
        row = {
          key,
          ...empty(),
          last: 0,
          ...(by === 'day' ? { day } : { agentId }),
          ...(by === 'session' ? { sessionId } : {}),
          ...(context ? { context } : {}),
        };
        out.set(key, row);
      }
      add(row, c);
      row.last = Math.max(row.last, c.last);
    }
    return [...out.values()].sort((a, b) => b.last - a.last);
  }

  dispose(): void {
    this._onDidChange.dispose();
  }

  private reported(agentId: string, e: Extract<SessionEvent, { kind: 'usage' }>, t: number): void {
    const s = this.state(agentId, e.sessionId);
    s.context = { used: num(e.used), size: num(e.size) };
    const cell = this.cell(agentId, e.sessionId, t);
    if (e.cost && typeof e.cost.currency === 'string') {
      const cur = e.cost.currency;
      const total = num(e.cost.amount);
      const before = s.reported.get(cur) ?? 0;
      // The total only grows within a session; one that fell started again (a new count): all of it is new.
      const grew = total >= before ? total - before : total;
      s.reported.set(cur, total);
      if (grew > 0) {
        cell.costs[cur] = (cell.costs[cur] ?? 0) + grew;
        s.totals.costs[cur] = (s.totals.costs[cur] ?? 0) + grew;
      }
    }
    this._onDidChange.fire({ agentId, sessionId: e.sessionId });
    if (this.keepLimits(agentId, rateLimitsOf(e._meta, t))) this._onDidChange.fire({ agentId });
  }

  /** Keeps each window's newest report (a replayed older one never replaces it). True when one was kept. */
  private keepLimits(agentId: string, reported: readonly RateLimit[]): boolean {
    if (!reported.length) return false;
    let m = this.limits.get(agentId);
    if (!m) this.limits.set(agentId, (m = new Map()));
    let kept = false;
    for (const l of reported) {
      const was = m.get(l.window);
      if (was && was.t > l.t) continue;
      m.set(l.window, l);
      kept = true;
    }
    return kept;
  }

  private turnEnded(agentId: string, sessionId: string, usage: { [k: string]: unknown } | undefined, t: number): void {
    const input = num(usage?.inputTokens);
    const output = num(usage?.outputTokens);
    const turn: UsageTotals = { turns: 1, inputTokens: input, outputTokens: output, totalTokens: num(usage?.totalTokens) || input + output, costs: {} };
    add(this.cell(agentId, sessionId, t), turn);
    add(this.state(agentId, sessionId).totals, turn);
    this._onDidChange.fire({ agentId, sessionId });
  }

  private state(agentId: string, sessionId: string): SessionState {
    const k = `${agentId}\0${sessionId}`;
    let s = this.sessions.get(k);
    if (!s) this.sessions.set(k, (s = { agentId, sessionId, reported: new Map(), totals: empty() }));
    return s;
  }

  private cell(agentId: string, sessionId: string, t: number): UsageTotals & { last: number } {
    const k = `${agentId}\0${sessionId}\0${this.dayOf(t)}`;
    let c = this.cells.get(k);
    if (!c) this.cells.set(k, (c = { ...empty(), last: t }));
    c.last = Math.max(c.last, t);
    return c;
  }
}

function add(into: UsageTotals, c: UsageTotals): void {
  into.turns += c.turns;
  into.inputTokens += c.inputTokens;
  into.outputTokens += c.outputTokens;
  into.totalTokens += c.totalTokens;
  for (const [cur, v] of Object.entries(c.costs)) into.costs[cur] = (into.costs[cur] ?? 0) + v;
}
