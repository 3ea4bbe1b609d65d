// Rate limits as agents report them, read leniently from a `usage_update`'s `_meta`. No ACP schema
// has a rate limit; what adapters send today:
//   - claude-agent-acp: `_meta["_claude/rateLimit"]` = the Claude SDK's rate limit info
//     `{status, rateLimitType, utilization (0–1), resetsAt (Unix seconds), …}`, one window per event;
//   - codex-acp keeps Codex's snapshots (`{limitId, limitName, primary, secondary}`, each window
//     `{usedPercent, windowDurationMins, resetsAt}`) to itself today; the same shape is read if it
//     ever arrives under a key that names rate limits.
// Any `_meta` key that names rate limits is read; a value understood only in part is kept with
// what was understood, and always with the raw value. Free of `vscode`.
import type { Meta } from '../../protocol/domain';

export interface RateLimit {
  /** Which window: the agent's name for it (`five_hour`, `seven_day`, `codex primary`). */
  readonly window: string;
  /** How long the window is, in minutes, when said. */
  readonly windowMinutes?: number;
  /** How much of the window is used, in percent, when said. */
  readonly usedPercent?: number;
  /** When the window resets (ms since the epoch), when said. */
  readonly resetsAt?: number;
  /** The agent's word for the state (`allowed`, `allowed_warning`, `rejected`), when said. */
  readonly status?: string;
  /** When it was reported (ms since the epoch). */
  readonly t: number;
  /** What the agent sent for it, as sent. */
  readonly raw: unknown;
}

/** The most windows one event may report (an agent's text has a budget). */
export const MAX_LIMITS_PER_EVENT = 16;
const NAME_MAX = 60;
const KEY = /rate_?limits?/i;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim().slice(0, NAME_MAX) : undefined);

/** A time as sent: Unix seconds, milliseconds, or an ISO string. */
function time(v: unknown): number | undefined {
  const n = finite(v);
  if (n !== undefined) return n > 0 ? (n < 1e11 ? n * 1000 : n) : undefined;
  const s = typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(s) ? s : undefined;
}

/** A percentage as sent: `usedPercent` (0–100), or `utilization` as a fraction (≤ 1) or a percentage. */
function percent(o: Obj): number | undefined {
  const p = finite(o['usedPercent']) ?? finite(o['used_percent']);
  if (p !== undefined) return Math.max(0, p);
  const u = finite(o['utilization']);
  if (u === undefined) return undefined;
  return Math.max(0, u <= 1 ? u * 100 : u);
}

function window(o: Obj, name: string, t: number): RateLimit {
  const minutes = finite(o['windowDurationMins']) ?? finite(o['window_minutes']);
  const used = percent(o);
  const resets = time(o['resetsAt'] ?? o['resets_at']);
  const status = str(o['status']);
  return {
    window: name,
    ...(minutes !== undefined && minutes > 0 ? { windowMinutes: minutes } : {}),
    ...(used !== undefined ? { usedPercent: used } : {}),
    ...(resets !== undefined ? { resetsAt: resets } : {}),
    ...(status ? { status } : {}),
    t,
    raw: o,
  };
}

/** One reported value: a Codex snapshot (primary and secondary windows), a map of them, a list, or one window. */
function read(v: unknown, fallback: string, t: number, out: RateLimit[]): void {
  if (out.length >= MAX_LIMITS_PER_EVENT) return;
  if (Array.isArray(v)) {
    for (const x of v.slice(0, MAX_LIMITS_PER_EVENT)) read(x, fallback, t, out);
    return;
  }
  if (!isObj(v)) return;
  if (isObj(v['rateLimitsByLimitId'])) {
    for (const [id, snap] of Object.entries(v['rateLimitsByLimitId']).slice(0, MAX_LIMITS_PER_EVENT)) read(snap, id, t, out);
    return;
  }
  const name = str(v['rateLimitType']) ?? str(v['limitName']) ?? str(v['limitId']) ?? str(v['window']) ?? fallback;
  const windows = (['primary', 'secondary'] as const).filter((w) => isObj(v[w]));
  if (windows.length) {
    for (const w of windows) out.push({ ...window(v[w] as Obj, `${name} ${w}`, t), raw: v });
    return;
  }
  out.push(window(v, name, t));
}

/** The rate limits a `usage_update`'s `_meta` reports (none: an empty list). */
export function rateLimitsOf(meta: Meta, t: number): RateLimit[] {
  if (!meta) return [];
  const out: RateLimit[] = [];
  for (const [k, v] of Object.entries(meta)) {
    if (!KEY.test(k)) continue;
    read(v, k.replace(/^_[^/]*\//, '').slice(0, NAME_MAX) || k.slice(0, NAME_MAX), t, out);
  }
  return out.slice(0, MAX_LIMITS_PER_EVENT);
}
