// Usage rows as CSV (RFC 4180: comma-separated, CRLF, quotes doubled). A cell an agent named (a
// session's title) may start like a spreadsheet formula: such a cell is written as text (a leading
// apostrophe), so opening the file runs nothing. Free of `vscode`.
import type { UsageGrouping, UsageRow } from './usageLedger';

/** How the view names a row's agent and session (untrusted text: the agent chose the title). */
export interface UsageNames {
  agent(agentId: string): string;
  session(agentId: string, sessionId: string): string;
}

const FORMULA = /^[=+\-@\t\r]/;

export function csvCell(v: string | number): string {
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
  const text = FORMULA.test(v) ? `'${v}` : v;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The currencies used in `rows`, sorted (one cost column each). */
export function currencies(rows: readonly UsageRow[]): string[] {
  return [...new Set(rows.flatMap((r) => Object.keys(r.costs)))].sort();
}

export function usageCsv(by: UsageGrouping, rows: readonly UsageRow[], names: UsageNames): string {
  const curs = currencies(rows);
  const lead = by === 'day' ? ['day'] : by === 'agent' ? ['agent'] : ['agent', 'session', 'session id'];
  const head = [...lead, 'turns', 'input tokens', 'output tokens', 'total tokens', ...curs.map((c) => `cost (${c})`), 'last used'];
  const lines = [head.map(csvCell).join(',')];
  for (const r of rows) {
    const who =
      by === 'day'
        ? [r.day ?? r.key]
        : by === 'agent'
          ? [names.agent(r.agentId ?? '')]
          : [names.agent(r.agentId ?? ''), names.session(r.agentId ?? '', r.sessionId ?? ''), r.sessionId ?? ''];
    const cells = [...who, r.turns, r.inputTokens, r.outputTokens, r.totalTokens, ...curs.map((c) => r.costs[c] ?? 0), new Date(r.last).toISOString()];
    lines.push(cells.map(csvCell).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
