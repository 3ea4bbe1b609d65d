// The live usage meter, as words and short figures: what a session's row adds to its description
// (`42k/200k · $0.12`: the context window used of its size, then the cost so far; only tokens when
// the agent reports neither) and the lines the row's tooltip and the status bar's add (context,
// tokens, cost, the agent's rate limits). Pure (a type-only vscode import), so unit tests read it
// in English and German without VS Code.
import type * as vscode from 'vscode';
import type { RateLimit } from '../../app/usage/rateLimits';
import type { SessionUsage } from '../../app/usage/usageLedger';
import { english } from '../../common/l10n';
import { truncate } from '../../state/planSummary';

type L10n = Pick<typeof vscode.l10n, 't'>;

/** 950 → `950`, 1 250 → `1.3k`, 42 000 → `42k`, 1 500 000 → `1.5M` (a figure for a narrow row). */
export function compact(n: number): string {
  const v = Math.max(0, Math.round(n));
  const scaled = (x: number, unit: string): string => `${x >= 100 ? Math.round(x) : Math.round(x * 10) / 10}${unit}`;
  if (v < 1000) return String(v);
  if (v < 999_500) return scaled(v / 1000, 'k');
  return scaled(v / 1_000_000, 'M');
}

/** An amount in its currency, cents shown; an amount under a cent keeps its first figures (`$0.0042`). */
export function money(amount: number, currency: string, language = 'en'): string {
  const digits = amount > 0 && amount < 0.01 ? 4 : 2;
  try {
    return amount.toLocaleString(language, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: digits });
  } catch {
    // Not an ISO 4217 code: the number and the agent's code.
    return `${amount.toFixed(digits)} ${truncate(currency, 12)}`;
  }
}

const costs = (u: SessionUsage, language: string): string[] =>
  Object.entries(u.totals.costs)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([cur, v]) => money(v, cur, language));

/** What a session's row adds to its description; undefined when nothing was reported. */
export function meterText(u: SessionUsage | undefined, language = 'en', l10n: L10n = english): string | undefined {
  if (!u) return undefined;
  const parts: string[] = [];
  if (u.context && u.context.size > 0) parts.push(`${compact(u.context.used)}/${compact(u.context.size)}`);
  parts.push(...costs(u, language));
  if (!parts.length && u.totals.totalTokens > 0) parts.push(l10n.t('{0} tokens', compact(u.totals.totalTokens)));
  return parts.length ? parts.join(' · ') : undefined;
}

/** The tooltip's lines on a session's usage. */
export function usageLines(u: SessionUsage | undefined, language = 'en', l10n: L10n = english): string[] {
  if (!u) return [];
  const n = (v: number): string => v.toLocaleString(language);
  const out: string[] = [];
  const c = u.context;
  if (c && c.size > 0) out.push(l10n.t('Context: {0} of {1} tokens ({2}%)', n(c.used), n(c.size), Math.round((100 * c.used) / c.size)));
  const t = u.totals;
  if (t.turns > 0 && t.totalTokens > 0) out.push(l10n.t('Tokens: {0} in, {1} out, {2} in all', n(t.inputTokens), n(t.outputTokens), n(t.totalTokens)));
  const cost = costs(u, language);
  if (cost.length) out.push(l10n.t('Cost so far: {0}', cost.join(', ')));
  return out;
}

/** A window's name for people: the agent's identifier (`five_hour` → `five hour`), or its length. */
export function windowName(l: RateLimit, l10n: L10n = english): string {
  const name = truncate(l.window.replace(/_/g, ' '), 40);
  if (l.windowMinutes === undefined) return name;
  const h = l.windowMinutes / 60;
  const span = Number.isInteger(h) ? (h % 24 === 0 ? l10n.t('{0} d', h / 24) : l10n.t('{0} h', h)) : l10n.t('{0} min', l.windowMinutes);
  return `${name} (${span})`;
}

/** A rate limit's state in a few words: used, status, when it resets. */
export function limitState(l: RateLimit, language = 'en', l10n: L10n = english): string {
  const parts: string[] = [];
  if (l.usedPercent !== undefined) parts.push(l10n.t('{0}% used', Math.round(l.usedPercent)));
  if (l.status && l.status !== 'allowed') parts.push(truncate(l.status.replace(/_/g, ' '), 30));
  if (l.resetsAt !== undefined) parts.push(l10n.t('resets {0}', new Date(l.resetsAt).toLocaleString(language, { dateStyle: 'short', timeStyle: 'short' })));
  return parts.length ? parts.join(', ') : l10n.t('reported');
}

/** The tooltip's lines on an agent's rate limits. */
export function rateLimitLines(limits: readonly RateLimit[], language = 'en', l10n: L10n = english): string[] {
  return limits.map((l) => l10n.t('Rate limit {0}: {1}', windowName(l, l10n), limitState(l, language, l10n)));
}
