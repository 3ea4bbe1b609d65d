// A session bundle (ACP: Export Session… / Import Session…): its format, how a file is read into
// one, and which sessions an import creates from it. Free of `vscode`: the commands
// (src/ui/historyCommands.ts) only pick the file and show the result.
import type { HistoryRecord } from './records';
import { asRecord } from './logReader';

export const BUNDLE_FORMAT = 'acp-plans/session';
/** The largest bundle imported (the history keeps at most this much of one session too). */
export const MAX_BUNDLE_BYTES = 64 * 1024 * 1024;

export interface Bundle {
  format: string;
  version: 1;
  agentId: string;
  agentName: string;
  sessionId: string;
  title?: string;
  cwd?: string;
  exportedAt: string;
  records: HistoryRecord[];
}

/** One session an import creates. */
export interface ImportedSession {
  agentId: string;
  agentName: string;
  sessionId: string;
  title?: string;
  cwd?: string;
  records: HistoryRecord[];
}

/** What importing a bundle creates, and what the user is told about it. */
export interface ImportPlan {
  sessions: ImportedSession[];
  /** Sessions the file names. */
  named: number;
  note?: string;
}

/** The bundle, or why it is not one. Records are checked one by one (bad ones skipped). */
export function readBundle(text: string): Bundle | string {
  let v: Partial<Bundle>;
  try {
    v = JSON.parse(text) as Partial<Bundle>;
  } catch {
    return 'the file is not JSON.';
  }
  if (v.format !== BUNDLE_FORMAT || v.version !== 1) return `the file is not an ACP Plans session (format "${String(v.format).slice(0, 40)}").`;
  if (typeof v.agentId !== 'string' || typeof v.sessionId !== 'string' || !Array.isArray(v.records))
    return 'the session is incomplete (agent, session or records missing).';
  const records = v.records.map(asRecord).filter((r): r is HistoryRecord => r !== undefined);
  return { ...(v as Bundle), agentName: typeof v.agentName === 'string' ? v.agentName : v.agentId, records };
}

/** The sessions importing `text` creates, or why it creates none. */
export function planImport(text: string): ImportPlan | string {
  const bundle = readBundle(text);
  if (typeof bundle === 'string') return bundle;
  const { agentId, agentName, sessionId, title, cwd, records } = bundle;
  return { sessions: [{ agentId, agentName, sessionId, records, ...(title ? { title } : {}), ...(cwd ? { cwd } : {}) }], named: 1 };
}
