// The records the plan store hands out (store.ts): a plan with its revisions, what the UI read of
// a file plan, change events and snapshots, and the caps with their defaults. Plain data, the
// bottom of the store's files (index.ts), vscode-free.
import type { PlanContent } from '../../protocol/domain';
import { jsonClone } from '../json';
import type { PlanSummary } from '../planSummary';
import type { PlanView } from '../planTypes';

export const DEFAULT_MAX_REVISIONS = 200;
export const DEFAULT_PLAN_LIMITS: PlanLimits = {
  maxPlanBytes: 1024 * 1024,
  maxHistoryBytes: 8 * 1024 * 1024,
  maxArchived: 100,
  maxArchiveBytes: 16 * 1024 * 1024,
  maxLive: 200,
};

/** Byte and count caps besides `maxRevisions`. */
export interface PlanLimits {
  /** One revision's content. */
  readonly maxPlanBytes: number;
  /** All kept revisions of one plan. */
  readonly maxHistoryBytes: number;
  /** Archived plans per session. */
  readonly maxArchived: number;
  /** History bytes of a session's archived plans. */
  readonly maxArchiveBytes: number;
  /** Live plans per session; a new one past it archives the least recently updated. */
  readonly maxLive: number;
}

/** A live plan (`archiveId` absent) or an archived one. */
export interface PlanRef {
  readonly agentId: string;
  readonly sessionId: string;
  readonly planId: string;
  readonly archiveId?: number;
}

export interface PlanRevision {
  readonly version: number;
  /** Milliseconds since the epoch. */
  readonly time: number;
  readonly plan: PlanContent;
  /** The summary of this revision (of the plan alone: a file plan's text is not part of it). */
  readonly summary: PlanSummary;
  /** Size of the content (about its JSON length). */
  readonly bytes: number;
  /** What the store left out of the agent's content (over `maxPlanBytes`). */
  readonly truncated?: string;
}

/** What the UI last read from a file plan's file (the store does no I/O). */
export interface FileState {
  readonly text?: string;
  readonly error?: string;
  /** The file was not read for a reason the user may overrule by opening it (outside the workspace). */
  readonly offerOpen?: boolean;
  readonly loadedAt: number;
}

export interface PlanRecord {
  readonly agentId: string;
  readonly sessionId: string;
  readonly planId: string;
  /** The current content (for unknown types, the whole raw payload). */
  readonly plan: PlanContent;
  /** 1 on creation, +1 on every real change. */
  readonly version: number;
  readonly summary: PlanSummary;
  /** The plan's type and derived data (a Markdown outline), computed once per change. */
  readonly view: PlanView;
  /** Oldest first; the last one is the current content. */
  readonly revisions: readonly PlanRevision[];
  /** Revisions dropped because of the caps (count or bytes). */
  readonly droppedRevisions: number;
  /** Bytes of the kept revisions. */
  readonly historyBytes: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Store-wide order of the last change (breaks `updatedAt` ties). */
  readonly seq: number;
  readonly file?: FileState;
  readonly archived?: { readonly archiveId: number; readonly removedAt: number };
}

export type PlanChange =
  | { kind: 'added' | 'updated'; agentId: string; sessionId: string; planId: string; version: number }
  | { kind: 'removed'; agentId: string; sessionId: string; planId: string; archiveId: number }
  /** Everything of a session (or, without sessionId, of an agent) was dropped. */
  | { kind: 'cleared'; agentId: string; sessionId?: string };

export interface PlanSnapshot {
  agentId: string;
  sessionId: string;
  planId: string;
  type: PlanContent['type'];
  rawType?: string;
  version: number;
  summary: PlanSummary;
  revisions: number;
  droppedRevisions: number;
  createdAt: number;
  updatedAt: number;
  plan: PlanContent;
  /** What the store left out of the current content (over its byte cap). */
  truncated?: string;
  file?: FileState;
  archived?: { archiveId: number; removedAt: number };
}

export function sanitizeCap(n: number | undefined, fallback: number): number {
  if (n === undefined || !Number.isFinite(n)) return fallback;
  return Math.max(1, Math.floor(n));
}

export function sanitizeLimits(l: Partial<PlanLimits> | undefined): PlanLimits {
  const d = DEFAULT_PLAN_LIMITS;
  return {
    maxPlanBytes: sanitizeCap(l?.maxPlanBytes, d.maxPlanBytes),
    maxHistoryBytes: sanitizeCap(l?.maxHistoryBytes, d.maxHistoryBytes),
    maxArchived: sanitizeCap(l?.maxArchived, d.maxArchived),
    maxArchiveBytes: sanitizeCap(l?.maxArchiveBytes, d.maxArchiveBytes),
    maxLive: sanitizeCap(l?.maxLive, d.maxLive),
  };
}

export function toSnapshot(p: PlanRecord): PlanSnapshot {
  const truncated = p.revisions.at(-1)?.truncated;
  return jsonClone({
    agentId: p.agentId,
    sessionId: p.sessionId,
    planId: p.planId,
    type: p.plan.type,
    ...(p.plan.type === 'unknown' ? { rawType: p.plan.rawType } : {}),
    version: p.version,
    summary: p.summary,
    revisions: p.revisions.length,
    droppedRevisions: p.droppedRevisions,
    createdAt: p.createdAt,
    updatedAt: p.updatedAt,
    plan: p.plan,
    ...(truncated ? { truncated } : {}),
    ...(p.file ? { file: p.file } : {}),
    ...(p.archived ? { archived: p.archived } : {}),
  });
}
