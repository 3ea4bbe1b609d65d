// What the Plans tree is built with: how it is paced and what it reads besides the stores (the
// intent view, marks of agents, background names, step work, restoring sessions, settings problems,
// worktrees).
import type * as vscode from 'vscode';
import type { IntentSource } from '../../app/intent/intentView';
import type { WorkStore } from '../../state/attribution/workStore';
import type { ConfigProblemRows } from './nodes';
import type { BackgroundNameSource } from './subagentItems';
import type { AgentMarks } from './treeItems';
import type { WorktreeSource } from './worktreeRows';

/**
 * Stored sessions being restored (replayed from their history) at activation. Until a session's
 * replay has finished, its rows are not refreshed (they would show it half replayed) and its
 * children wait for it (a bounded time), so the rows in view appear once, complete.
 */
export interface RestoringSessions {
  pending(agentId: string, sessionId: string): Promise<void> | undefined;
  /** The same, and its replay goes next (its rows are wanted now). */
  wanted(agentId: string, sessionId: string): Promise<void> | undefined;
  readonly onDidReplay: (listener: (key: { agentId: string; sessionId: string }) => void) => vscode.Disposable;
}

export interface PlansTreeOptions {
  /** Paced for the real view (VS Code's debounce and fetches); else `frameMs` apart. */
  view?: boolean;
  frameMs?: number; // the shortest time between two refreshes when not `view`; default 16
  intent?: IntentSource;
  marks?: AgentMarks;
  foldDoneStepsAfter?: () => number;
  names?: BackgroundNameSource;
  work?: WorkStore;
  restoring?: RestoringSessions;
  /** Rejected `acp.agents` entries: an error row each at the top, until the setting is fixed. */
  problems?: ConfigProblemRows;
  worktrees?: WorktreeSource;
}
