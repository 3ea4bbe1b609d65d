// One memory budget per agent: what the stores keep of an agent's plans, revisions and
// conversations, across all its sessions and child sessions, is charged here, so the per-plan and
// per-session caps cannot be multiplied by opening more plans or sessions (1,000 plans of 1 MiB,
// 100 subagents of 8 MiB each).
//
// Contract:
//   - Stores call `charge(agentId, delta, sessionId)` whenever what they keep of an agent grows or
//     shrinks (negative deltas release), with the sizes they already count for their own caps (a
//     plan revision's `bytes`, a transcript item's characters, one character counted as one byte).
//     A charge is O(1).
//   - When an agent's total passes its limit, the reclaimers (registered by the stores, each with a
//     stage) are asked in stage order to cut that agent's oldest data until the total is at most 90%
//     of the limit (so a full agent does not cut on every event). A reclaimer cuts what it can,
//     oldest first, in work proportional to what it cuts, and releases it through `charge`;
//     charges made while reclaiming only count.
//   - One more limit holds for all agents together (`totalLimitBytes`), so N agents cannot hold N
//     budgets: when the sum passes it, the agent holding the most is cut the same way (its oldest
//     data first, then the next largest), until the sum is at most 90% of that limit.
//   - What was cut, and every count cap a store applied (`report`), is said once per agent and
//     kind through `onDidCut` (the composition root turns it into a notice and a log line).
//   - Synchronous, vscode-free; nothing here holds the data itself.
import type { Event } from '../protocol/api';
import { Emitter } from './emitter';

const MiB = 1024 * 1024;

/** The default memory budget of one agent. */
export const DEFAULT_AGENT_MEMORY_BYTES = 256 * MiB;
/** The smallest budget a setting may choose. */
export const MIN_AGENT_MEMORY_BYTES = 16 * MiB;
/** The default memory limit of all agents together. */
export const DEFAULT_TOTAL_MEMORY_BYTES = 1024 * MiB;
/** The smallest limit of all agents together a setting may choose. */
export const MIN_TOTAL_MEMORY_BYTES = 64 * MiB;

/** Reclaim stages, cut in this order: the oldest archived plans first, live plans last. */
export const ReclaimStage = { ArchivedPlans: 10, PlanHistory: 20, Transcript: 30, LivePlans: 40 } as const;

/** Cuts up to `bytes` of the agent's oldest data (releasing it through `charge`); returns what it cut, for people ("conversation items"), or undefined when it cut nothing. */
export type Reclaimer = (agentId: string, bytes: number) => string | undefined;

export type BudgetCut =
  /** The memory budget was passed: `what` lists what was cut, oldest first; `all`: the limit of all agents together. */
  | { kind: 'memory'; agentId: string; sessionId?: string; limitBytes: number; what: string[]; all?: true }
  /** A store archived or refused something over a count cap: `text` says so after the agent's name. */
  | { kind: 'count'; agentId: string; sessionId?: string; cap: string; text: string };

export class AgentBudget {
  private readonly totals = new Map<string, number>();
  /** The sum of `totals`. */
  private sum = 0;
  private readonly reclaimers: { stage: number; reclaim: Reclaimer }[] = [];
  private readonly said = new Set<string>();
  private reclaiming = false;
  private _limitBytes: number;
  private _totalLimitBytes: number;
  private readonly _onDidCut = new Emitter<BudgetCut>();
  /** Fires once per agent and kind (memory, or each count cap). */
  readonly onDidCut: Event<BudgetCut> = this._onDidCut.event;

  constructor(limitBytes = DEFAULT_AGENT_MEMORY_BYTES, totalLimitBytes = DEFAULT_TOTAL_MEMORY_BYTES) {
    this._limitBytes = sanitize(limitBytes);
    this._totalLimitBytes = sanitizeTotal(totalLimitBytes);
  }

  /** The limit of all agents together. */
  get totalLimitBytes(): number {
    return this._totalLimitBytes;
  }

  /** A new limit of all agents together; applied at the next charge that grows one. */
  setTotalLimit(bytes: number): void {
    this._totalLimitBytes = sanitizeTotal(bytes);
  }

  /** What the stores keep of all agents together. */
  get sumBytes(): number {
    return this.sum;
  }

  get limitBytes(): number {
    return this._limitBytes;
  }

  /** A new limit; agents over it are cut at their next charge. */
  setLimit(bytes: number): void {
    this._limitBytes = sanitize(bytes);
  }

  /** Stores register how they cut an agent's oldest data, at a stage of `ReclaimStage`. */
  addReclaimer(stage: number, reclaim: Reclaimer): void {
    this.reclaimers.push({ stage, reclaim });
    this.reclaimers.sort((a, b) => a.stage - b.stage);
  }

  /** What the stores keep of an agent now (bytes, as they count them). */
  total(agentId: string): number {
    return this.totals.get(agentId) ?? 0;
  }

  /** Adds `delta` (negative: releases) to the agent's total; cuts the oldest when it passes the limit. */
  charge(agentId: string, delta: number, sessionId?: string): void {
    if (delta === 0) return;
    const before = this.totals.get(agentId) ?? 0;
    const total = before + delta;
    if (total <= 0) this.totals.delete(agentId);
    else this.totals.set(agentId, total);
    this.sum += Math.max(0, total) - before;
    if (delta <= 0 || this.reclaiming) return;
    if (total > this._limitBytes) this.reclaim(agentId, sessionId);
    if (this.sum > this._totalLimitBytes) this.reclaimAll(agentId, sessionId);
  }

  /** A store applied the count cap `cap`; `text` follows the agent's name. Said once per agent and cap. */
  report(agentId: string, cap: string, text: string, sessionId?: string): void {
    this.sayOnce(`${agentId}\u0000${cap}`, { kind: 'count', agentId, ...(sessionId !== undefined ? { sessionId } : {}), cap, text });
  }

  /** Forgets an agent's total and what was said (its stores dropped everything of it). */
  forget(agentId: string): void {
    this.sum -= this.totals.get(agentId) ?? 0;
    this.totals.delete(agentId);
    for (const k of [...this.said]) if (k.startsWith(`${agentId}\u0000`)) this.said.delete(k);
  }

  dispose(): void {
    this._onDidCut.dispose();
  }

  private reclaim(agentId: string, sessionId: string | undefined): void {
    const what = this.cutDown(agentId, () => this.total(agentId) - Math.floor(this._limitBytes * 0.9));
    if (what.length) this.sayMemory(agentId, sessionId, this._limitBytes, what);
  }

  /** All agents together passed their limit: the agent holding the most is cut first, then the next. */
  private reclaimAll(charging: string, sessionId: string | undefined): void {
    const target = Math.floor(this._totalLimitBytes * 0.9);
    const spared = new Set<string>();
    while (this.sum > target) {
      let largest: string | undefined;
      for (const [id, total] of this.totals) if (!spared.has(id) && (largest === undefined || total > this.total(largest))) largest = id;
      if (largest === undefined) return; // nothing left that can be cut
      spared.add(largest);
      const what = this.cutDown(largest, () => this.sum - target);
      if (what.length) this.sayMemory(largest, largest === charging ? sessionId : undefined, this._totalLimitBytes, what, true);
    }
  }

  /** Asks the reclaimers, in stage order, to cut `agentId`'s oldest data while `over()` is positive; returns what was cut. */
  private cutDown(agentId: string, over: () => number): string[] {
    this.reclaiming = true;
    const what: string[] = [];
    try {
      for (const r of this.reclaimers) {
        const bytes = Math.min(over(), this.total(agentId));
        if (bytes <= 0) break;
        const cut = r.reclaim(agentId, bytes);
        if (cut !== undefined && !what.includes(cut)) what.push(cut);
      }
    } finally {
      this.reclaiming = false;
    }
    return what;
  }

  private sayMemory(agentId: string, sessionId: string | undefined, limitBytes: number, what: string[], all?: true): void {
    this.sayOnce(`${agentId}\u0000${all ? 'memory-all' : 'memory'}`, {
      kind: 'memory',
      agentId,
      ...(sessionId !== undefined ? { sessionId } : {}),
      limitBytes,
      what,
      ...(all ? { all } : {}),
    });
  }

  private sayOnce(key: string, cut: BudgetCut): void {
    if (this.said.has(key)) return;
    this.said.add(key);
    this._onDidCut.fire(cut);
  }
}

/** What the notice and the log say of a cut, for people. */
export function budgetCutText(agentName: string, cut: BudgetCut): string {
  if (cut.kind === 'memory') {
    const list = cut.what.length > 1 ? `${cut.what.slice(0, -1).join(', ')} and ${cut.what.at(-1)!}` : cut.what[0]!;
    if (cut.all)
      return `All agents together hold more than ${Math.round(cut.limitBytes / MiB)} MiB; the oldest ${list} of ${agentName}, which holds the most, were cut to stay within the memory limit of all agents (acp.limits.totalMemoryMiB).`;
    return `${agentName} sent more than ${Math.round(cut.limitBytes / MiB)} MiB; the oldest ${list} were cut to stay within its memory budget (acp.limits.agentMemoryMiB).`;
  }
  return `${agentName} ${cut.text}`;
}

function sanitizeTotal(bytes: number): number {
  return Number.isFinite(bytes) ? Math.max(MIN_TOTAL_MEMORY_BYTES, Math.floor(bytes)) : DEFAULT_TOTAL_MEMORY_BYTES;
}

function sanitize(bytes: number): number {
  return Number.isFinite(bytes) ? Math.max(MIN_AGENT_MEMORY_BYTES, Math.floor(bytes)) : DEFAULT_AGENT_MEMORY_BYTES;
}
