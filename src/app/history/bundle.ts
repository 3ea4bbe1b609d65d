// A session bundle (ACP: Export Session… / Import Session…): its format, how a file is read into
// one, and which sessions an import creates from it. Free of `vscode`: the commands
// (src/ui/historyCommands.ts) only pick the file and show the result.
//
// A bundle is data, never authority. Its agent id is rewritten into the import namespace
// (`import:<agent id>`, src/common/pseudoAgents.ts), so nothing in it can reach a running agent's session:
// a bundle naming a live session becomes a read-only copy of its own. Each record goes to the
// session it names (an event's session id, a permission request's; answers follow their request;
// terminal output and writes go to the bundle's own session), and a file creates at most
// MAX_SESSIONS_PER_FILE sessions (the first it names, the bundle's own first; the records of the
// others are dropped and the user is told how many were named). Every imported record is applied
// through the same stores, with the same per-session caps, as a live agent's (SessionHistory's replay).
import { SessionBudget } from '../../common/sessionBudget';
import { english, type L10n } from '../../common/l10n';
import type { HistoryRecord } from './records';
import { asRecord } from './logReader';
import { IMPORT_AGENT_PREFIX, isImportedAgent } from '../../common/pseudoAgents';

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

/** The bundle, or why it is not one (a whole sentence in the user's words). Records are checked one by one (bad ones skipped). */
export function readBundle(text: string, l10n: L10n = english): Bundle | string {
  let v: Partial<Bundle>;
  try {
    v = JSON.parse(text) as Partial<Bundle>;
  } catch {
    return l10n.t('Not imported: the file is not JSON.');
  }
  if (v.format !== BUNDLE_FORMAT || v.version !== 1)
    return l10n.t('Not imported: the file is not an ACP Plans session (format "{0}").', String(v.format).slice(0, 40));
  if (typeof v.agentId !== 'string' || typeof v.sessionId !== 'string' || !Array.isArray(v.records))
    return l10n.t('Not imported: the session is incomplete (agent, session or records missing).');
  const records = v.records.map(asRecord).filter((r): r is HistoryRecord => r !== undefined);
  return {
    format: BUNDLE_FORMAT,
    version: 1,
    agentId: v.agentId,
    agentName: typeof v.agentName === 'string' ? v.agentName : v.agentId,
    sessionId: v.sessionId,
    exportedAt: typeof v.exportedAt === 'string' ? v.exportedAt : '',
    records,
    ...(typeof v.title === 'string' ? { title: v.title } : {}),
    ...(typeof v.cwd === 'string' ? { cwd: v.cwd } : {}),
  };
}

/** The sessions importing `text` creates (at most MAX_SESSIONS_PER_FILE), or why it creates none (a whole sentence). */
export function planImport(text: string, l10n: L10n = english): ImportPlan | string {
  const bundle = readBundle(text, l10n);
  if (typeof bundle === 'string') return bundle;
  const agentId = isImportedAgent(bundle.agentId) ? bundle.agentId : `${IMPORT_AGENT_PREFIX}${bundle.agentId}`;
  const agentName = bundle.agentName.startsWith('Imported: ') ? bundle.agentName : `Imported: ${bundle.agentName}`;
  const budget = new SessionBudget();
  const groups = new Map<string, HistoryRecord[]>([[bundle.sessionId, []]]);
  budget.admit(bundle.sessionId);
  const asked = new Map<string, string>(); // permission request id → its session
  for (const r of bundle.records) {
    const sessionId = sessionOf(r, bundle.sessionId, asked);
    if (!budget.admit(sessionId)) continue;
    // A subagent update creates its child session: the child counts too.
    if ('e' in r && r.e.kind === 'subagent' && (typeof r.e.childSessionId !== 'string' || !budget.admit(r.e.childSessionId))) continue;
    if ('ask' in r) asked.set(r.ask.id, sessionId);
    let list = groups.get(sessionId);
    if (!list) groups.set(sessionId, (list = []));
    list.push(r);
  }
  const sessions = [...groups].map(([sessionId, records]): ImportedSession => ({
    agentId,
    agentName,
    sessionId,
    records,
    ...(sessionId === bundle.sessionId && bundle.title ? { title: bundle.title } : {}),
    ...(sessionId === bundle.sessionId && bundle.cwd ? { cwd: bundle.cwd } : {}),
  }));
  const note = budget.summary('imported', l10n);
  return { sessions, named: budget.named, ...(note ? { note } : {}) };
}

/** The session a record belongs to (`main`: the bundle's own). */
function sessionOf(r: HistoryRecord, main: string, asked: ReadonlyMap<string, string>): string {
  if ('e' in r) return r.e.sessionId;
  if ('ask' in r) return typeof r.ask.request.sessionId === 'string' ? r.ask.request.sessionId : main;
  if ('answer' in r) return asked.get(r.answer.id) ?? main;
  return main;
}
