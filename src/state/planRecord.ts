// The records of the plan store (planStore.ts): a plan with its revisions, what the UI read of a
// file plan, change events and snapshots. Plain data, vscode-free.
import type { PlanContent } from '../protocol/domain';
import type { PlanSummary } from './planSummary';
import type { PlanView } from './planTypes';

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
