// Everything of the plans experience in one call: the Plans tree view, the status bar item, the
// file-plan watchers, the `acp-plan` documents and the plan commands. activate() calls
// createPlansUi(registry, planStore) and owns the result (context.subscriptions).
import * as vscode from 'vscode';
import type { WorktreeSource } from './tree/worktreeRows';
import { DisposableStore } from '../common/lifecycle';
import type { WorkStore } from '../state/attribution/workStore';
import type { PlanRef, PlanStore } from '../state/planStore';
import type { SessionStore } from '../state/sessionStore';
import type { IntentSource } from '../app/intent/intentView';
import { PLAN_COMMANDS, planCommandsModule, registerLazyCommands } from './lazyCommands';
import { PLAN_SCHEME, PlanDocuments } from './planDocuments';
import { PlansStatusBar } from './statusBar';
import { FilePlanSync } from './tree/filePlans';
import { MarkdownPlanFiles } from './markdownPlanFiles';
import type { PlanTreeNode } from './tree/nodes';
import { PlansTreeProvider, type RestoringSessions } from './tree/plansTreeProvider';
import type { ConfigProblemRows } from './tree/nodes';
import type { AgentMarks } from './tree/treeItems';
import type { BackgroundNameSource } from './tree/subagentItems';

export const PLANS_VIEW_ID = 'acp.plans';

export interface PlansUi extends vscode.Disposable {
  readonly tree: PlansTreeProvider;
  readonly treeView: vscode.TreeView<PlanTreeNode>;
  readonly statusBar: PlansStatusBar;
  readonly files: FilePlanSync;
  readonly documents: PlanDocuments;
}

export interface PlansUiOptions {
  /** Default `acp.plans`. */
  viewId?: string;
  /** Default `acp-plan`. */
  scheme?: string;
  /** Register the `acp.*` plan commands (default true). */
  registerCommands?: boolean;
  /** Where `_intent` plans get their verification, steps and checked calls (else shown as unknown types). */
  intent?: IntentSource;
  /** Recording and replay marks on agent rows. */
  agentMarks?: AgentMarks;
  /** Items plans with more steps fold their oldest done steps (setting acp.plans.foldDoneStepsAfter; absent: never). */
  foldDoneStepsAfter?: () => number;
  /** Names background rows (a terminal's command, a tool call's title). */
  transcript?: BackgroundNameSource;
  /** The work attributed to plan steps (rows under each step, "Unplanned"). */
  work?: WorkStore;
  /** Stored sessions still being restored (their rows wait for it). */
  restoring?: RestoringSessions;
  /** Sessions in git worktrees (grouped under a row per worktree). */
  worktrees?: WorktreeSource;
  /** Rejected `acp.agents` entries (an error row each at the top of the tree). */
  problems?: ConfigProblemRows;
  /** Opens a plan's step timeline and drift (offered by Show Plan History). */
  timeline?: (ref: PlanRef) => Promise<vscode.Uri | undefined>;
}

export function createPlansUi(registry: SessionStore, plans: PlanStore, options: PlansUiOptions = {}): PlansUi {
  const viewId = options.viewId ?? PLANS_VIEW_ID;
  const owned = new DisposableStore();
  const own = <T extends vscode.Disposable>(d: T): T => owned.add(d);

  const tree = own(
    new PlansTreeProvider(registry, plans, {
      view: true,
      intent: options.intent,
      marks: options.agentMarks,
      foldDoneStepsAfter: options.foldDoneStepsAfter,
      names: options.transcript,
      work: options.work,
      restoring: options.restoring,
      worktrees: options.worktrees,
      problems: options.problems,
    }),
  );
  const treeView = own(vscode.window.createTreeView(viewId, { treeDataProvider: tree.forView, showCollapseAll: true }));
  // Picking a session's row shows that session (its conversation, its progress in the status bar),
  // a stored one included: reading an old session needs no resume.
  own(
    treeView.onDidChangeSelection((e) => {
      const n = e.selection.length === 1 ? e.selection[0] : undefined;
      if (n?.kind === 'session' && registry.session(n.agentId, n.sessionId)) registry.setActiveSession({ agentId: n.agentId, sessionId: n.sessionId });
    }),
  );
  const statusBar = own(new PlansStatusBar(registry, plans));
  const files = own(new FilePlanSync(plans));
  own(new MarkdownPlanFiles(plans));
  const documents = own(new PlanDocuments(plans, options.scheme ?? PLAN_SCHEME));
  const deps = { registry, plans, tree, treeView, documents, viewId, ...(options.timeline ? { timeline: options.timeline } : {}) };
  if (options.registerCommands !== false) own(registerLazyCommands(Object.values(PLAN_COMMANDS), () => planCommandsModule().planCommands(deps)));

  return {
    tree,
    treeView,
    statusBar,
    files,
    documents,
    dispose: () => owned.dispose(),
  };
}
