// What the session history keeps about each session (the index, `index.json`) and how it is
// configured: the index's records and their check on load, the log file name of a session, the
// options and the cap of one log. Free of `vscode`.
import { createHash } from 'node:crypto';
import type { HistoryRecord } from './records';

/**
 * One session's log past this size is compacted at once; if it stays above, later records of
 * that session are not kept (reported once). An agent re-sending a large plan cannot fill the disk.
 */
export const MAX_SESSION_LOG_BYTES = 64 * 1024 * 1024;

/** The git worktree a session works in (Run Prompt on Several Agents, New Session in Worktree…). */
export interface StoredWorktree {
  /** The main tree of the repository. */
  repo: string;
  /** The worktree's folder (the session's cwd). */
  path: string;
  branch: string;
  /** What the branch was made from (a branch name, or a commit), and the commit it started at. */
  baseRef: string;
  baseCommit: string;
  /** Opened by Run Prompt on Several Agents. */
  team?: boolean;
}

export interface StoredSession {
  agentId: string;
  agentName: string;
  sessionId: string;
  title?: string;
  cwd?: string;
  /** Its worktree, when it works in one: a restore shows it under that worktree. */
  worktree?: StoredWorktree;
  /**
   * How its last turn ended (`interrupted` when it had not): a restore shows it at once, as the
   * replay of its log will end it.
   */
  stopReason?: string;
  /** Log file name under `sessions/`. */
  file: string;
  bytes: number;
  createdAt: number;
  updatedAt: number;
}

/** What a session's row shows, as the index keeps it (undefined fields: unchanged). */
export interface SessionDescription {
  agentId: string;
  agentName: string;
  sessionId: string;
  title?: string;
  cwd?: string;
  stopReason?: string;
  /** null: it no longer works in one (the worktree was removed). */
  worktree?: StoredWorktree | null;
}

export interface HistoryIndex {
  version: 1;
  sessions: StoredSession[];
  active?: { agentId: string; sessionId: string };
}

export interface HistoryOptions {
  maxSessions: number;
  maxBytes: number;
  maxPlanRevisions: number;
  /** Default MAX_SESSION_LOG_BYTES. */
  maxSessionBytes?: number;
  /** Longest log line read (default MAX_LOG_LINE_BYTES, logLines.ts); a longer one is skipped. */
  maxLogLineBytes?: number;
  /** Flush delay (ms): records are appended at most this often. */
  flushMs?: number;
  warn(message: string): void;
  /** A session's log was deleted (by the user, or by retention): what is stored beside it goes too (its checkpoints). */
  removed?(agentId: string, sessionId: string): void;
}

export interface LoadedSession {
  records: HistoryRecord[];
  badLines: number;
  torn: boolean;
}

/** A session's index entry after `s` describes it (`prev`: its entry so far, if any; returned when nothing shown changed). */
export function describedSession(prev: StoredSession | undefined, s: SessionDescription, now: number): StoredSession {
  const next: StoredSession = prev
    ? {
        ...prev,
        agentName: s.agentName,
        ...(s.title !== undefined ? { title: s.title } : {}),
        ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
      }
    : {
        agentId: s.agentId,
        agentName: s.agentName,
        sessionId: s.sessionId,
        file: fileName(s.agentId, s.sessionId),
        bytes: 0,
        createdAt: now,
        updatedAt: now,
        ...(s.title !== undefined ? { title: s.title } : {}),
        ...(s.cwd !== undefined ? { cwd: s.cwd } : {}),
      };
  if (s.worktree) next.worktree = s.worktree;
  else if (s.worktree === null) delete next.worktree;
  if (s.stopReason !== undefined) {
    if (s.stopReason) next.stopReason = s.stopReason;
    else delete next.stopReason;
  }
  return prev && sameEntry(prev, next) ? prev : next;
}

export function fileName(agentId: string, sessionId: string): string {
  return `${createHash('sha256').update(`${agentId}\u0000${sessionId}`).digest('hex').slice(0, 32)}.jsonl`;
}

export function isStoredSession(v: unknown): v is StoredSession {
  const s = v as StoredSession;
  return (
    !!s &&
    typeof s.agentId === 'string' &&
    typeof s.sessionId === 'string' &&
    typeof s.file === 'string' &&
    /^[0-9a-f]{32}\.jsonl$/.test(s.file) &&
    typeof s.bytes === 'number' &&
    typeof s.updatedAt === 'number' &&
    (s.stopReason === undefined || typeof s.stopReason === 'string')
  );
}

export function isStoredWorktree(v: unknown): v is StoredWorktree {
  const w = v as StoredWorktree;
  return (
    !!w &&
    typeof w === 'object' &&
    (['repo', 'path', 'branch', 'baseRef', 'baseCommit'] as const).every((k) => typeof w[k] === 'string' && w[k].length > 0) &&
    (w.team === undefined || typeof w.team === 'boolean')
  );
}

export function sameWorktree(a: StoredWorktree | undefined, b: StoredWorktree | undefined): boolean {
  return (
    a === b ||
    (!!a &&
      !!b &&
      a.repo === b.repo &&
      a.path === b.path &&
      a.branch === b.branch &&
      a.baseRef === b.baseRef &&
      a.baseCommit === b.baseCommit &&
      !!a.team === !!b.team)
  );
}

/** Whether two index entries of a session show the same (agent name, title, folder, last stop, worktree). */
export function sameEntry(a: StoredSession, b: StoredSession): boolean {
  return a.agentName === b.agentName && a.title === b.title && a.cwd === b.cwd && a.stopReason === b.stopReason && sameWorktree(a.worktree, b.worktree);
}

/** A session read from the index with a worktree that is not one dropped (the session itself is kept). */
export function withValidWorktree(s: StoredSession): StoredSession {
  if (s.worktree === undefined || isStoredWorktree(s.worktree)) return s;
  const { worktree: _bad, ...rest } = s;
  return rest;
}

/** The sessions retention removes (least recently updated first, never the active one) to keep within the counts. */
export function overRetention(index: HistoryIndex, o: Pick<HistoryOptions, 'maxSessions' | 'maxBytes'>): StoredSession[] {
  const byAge = [...index.sessions].sort((a, b) => a.updatedAt - b.updatedAt);
  let total = byAge.reduce((n, s) => n + s.bytes, 0);
  let count = byAge.length;
  const out: StoredSession[] = [];
  for (const s of byAge) {
    if (count <= o.maxSessions && total <= o.maxBytes) break;
    if (s.agentId === index.active?.agentId && s.sessionId === index.active.sessionId) continue;
    out.push(s);
    count--;
    total -= s.bytes;
  }
  return out;
}
