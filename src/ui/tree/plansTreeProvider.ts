// The Plans tree: Agent → (worktree →) Session → Plan → steps, with an "Archived" node per session for plans the agent
// removed. A child session (subagent) is nested under its parent session, after the parent's plans; a session's
// background work follows as rows, then rows other features add (extraRows.ts). Sessions and agents are those of the
// registry plus any that hold plans (a closed session's plans stay until the store drops them).
//
// Refresh: store changes name the node that changed; ids are collected by a RefreshPacer and fired
// together, only the changed nodes (an ancestor covers its descendants); `undefined` (full refresh)
// only for root-level changes. The real view (`view`) is paced by VS Code's own debounce and fetches
// (src/ui/tree/refreshPacer.ts explains why); otherwise at most once per `frameMs`.
//
// A plan and the rows below it are its type's (src/ui/planTypes/: items, markdown, file, intent,
// unknown); this provider never looks at a plan's type. A change of a session's intent state refreshes its `_intent` plan nodes.
import * as vscode from 'vscode';
import { Disposable } from '../../common/lifecycle';
import { settledWithin } from '../../common/timeout';
import type { PlanChange, PlanRef, PlanStore } from '../../state/planStore';
import type { SessionStore, StoreChange } from '../../state/sessionStore';
import { FETCH_WAIT_MS, RefreshPacer, VIEW_DEBOUNCE_MS, type FlushResult } from './refreshPacer';
import { HeldRows } from './heldRows';
import { PLAN_COMMANDS } from '../lazyCommands';
import { planTypeView } from '../planTypes';
import type { PlanRowContext } from '../planTypes/planTypeView';
import { NodeIndex, agentNodeId, archiveNodeId, parentIdOf, planNodeId, sessionNodeId, sessionOfNode } from './nodes';
import type { PlanNode, PlanTreeNode, StepNode } from './nodes';
import { ExtraRows } from './extraRows';
import { backgroundItem, backgroundName, decorateChild, isBackgroundChild, type BackgroundNameSource } from './subagentItems';
import { agentItem, archiveItem, infoItem, problemItem, sessionItem, type AgentMarks } from './treeItems';
import { changedWorkRows, WorkRows } from './workRows';
import { WorktreeRows } from './worktreeRows';
import { ArchivedSlot } from './archivedSessions';
import { labelOf, rowSentence } from './rowSentences';
import { MeterSlot } from './sessionMeters';
import type { PlansTreeOptions, RestoringSessions } from './plansTreeOptions';

export type { PlansTreeOptions, RestoringSessions } from './plansTreeOptions';

const ROOT = '';

/** The longest a restored session's children wait for its replay before they show what is there. */
const RESTORE_WAIT_MS = 1500;

export class PlansTreeProvider extends Disposable implements vscode.TreeDataProvider<PlanTreeNode> {
  private readonly _onDidChangeTreeData = this._register(new vscode.EventEmitter<PlanTreeNode | PlanTreeNode[] | undefined>());
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  private readonly nodes = new NodeIndex();
  private readonly coalescer: RefreshPacer<string>;
  /** The rows VS Code holds (the real view's calls). */
  private readonly held = new HeldRows();
  private readonly rowSource = { item: (n: PlanTreeNode) => this.getTreeItem(n), children: (n: PlanTreeNode) => this.getChildren(n) };
  private _refreshEvents = 0;
  private readonly rowContext: PlanRowContext;
  /** The work attributed to steps (absent: the tree shows plans only). */
  private readonly workRows: WorkRows | undefined;
  private readonly worktreeRows: WorktreeRows | undefined;
  readonly extras = new ExtraRows(this.nodes, (id) => this.coalescer.add(id));

  private readonly marks: AgentMarks | undefined;
  private readonly names: BackgroundNameSource | undefined;
  private readonly restoring: RestoringSessions | undefined;
  /** What another feature adds to session rows (the usage feature's live meter); its changes refresh those rows. */
  readonly meters = new MeterSlot((agentId, sessionId) => this.coalescer.add(sessionNodeId(agentId, sessionId)));
  /** Archived sessions folded under their agent, and the session menus' facets (the session management feature). */
  readonly archived = new ArchivedSlot(this.nodes, (agentId) => this.coalescer.add(agentNodeId(agentId)));

  constructor(
    private readonly registry: SessionStore,
    private readonly plans: PlanStore,
    private readonly options: PlansTreeOptions = {},
  ) {
    super();
    const { intent, foldDoneStepsAfter, work } = options;
    this.marks = options.marks;
    this.names = options.names;
    this.restoring = options.restoring;
    const pace = options.view ? { windowMs: VIEW_DEBOUNCE_MS, fetchWaitMs: FETCH_WAIT_MS } : { windowMs: options.frameMs ?? 16 };
    this.coalescer = this._register(new RefreshPacer<string>((ids) => this.flush(ids), pace));
    this.rowContext = {
      nodes: this.nodes,
      ...(intent ? { intent } : {}),
      openPlanCommand: PLAN_COMMANDS.openPlan,
      ...(foldDoneStepsAfter ? { foldDoneStepsAfter } : {}),
    };
    this._register(plans.onDidChange((c) => this.onPlanChange(c)));
    this._register(registry.onDidChange((c) => this.onRegistryChange(c)));
    if (intent) this._register(intent.onDidChange((c) => this.onIntentChange(c.agentId, c.sessionId)));
    if (this.marks) this._register(this.marks.onDidChangeMarks((agentId) => this.coalescer.add(agentNodeId(agentId))));
    this.workRows = work && new WorkRows(work, this.nodes);
    if (work) this._register(work.onDidChange((c) => changedWorkRows(c).forEach((id) => this.coalescer.add(id))));
    const wt = options.worktrees;
    this.worktreeRows = wt && new WorktreeRows(wt, this.nodes);
    if (wt) this._register(wt.onDidChange(() => this.coalescer.add(ROOT)));
    // A restored session's rows are refreshed once, when its replay has finished.
    if (this.restoring) this._register(this.restoring.onDidReplay((k) => this.coalescer.add(sessionNodeId(k.agentId, k.sessionId))));
    if (options.problems) this._register(options.problems.onDidChange(() => this.coalescer.add(ROOT)));
  }

  /** How many times onDidChangeTreeData fired. */
  get refreshEvents(): number {
    return this._refreshEvents;
  }

  /** Resolves once pending changes have been fired. */
  whenIdle(): Promise<void> {
    return this.coalescer.whenIdle();
  }
  /** Fires pending changes now. */
  flushNow = (): void => this.coalescer.flushNow();

  // ------------------------------------------------------------------ TreeDataProvider

  /** Every row carries a sentence for screen readers (src/ui/tree/rowSentences.ts). */
  getTreeItem(node: PlanTreeNode): vscode.TreeItem {
    const t = this.rowItem(node);
    t.accessibilityInformation ??= { label: rowSentence(labelOf(t.label), String(t.description ?? ''), t.contextValue, vscode.l10n) };
    return t;
  }

  private rowItem(node: PlanTreeNode): vscode.TreeItem {
    if (node.kind === 'extra') return this.extras.item(node) ?? infoItem(node, vscode.l10n.t('(gone)'), false);
    if (node.kind === 'archivedSessions') return this.archived.item(node, this.topSessions(node.agentId));
    switch (node.kind) {
      case 'problem':
        return problemItem(node);
      case 'agent':
        return agentItem(node, this.registry.agent(node.agentId), node.agentId, this.marks);
      case 'worktree':
        return this.worktreeRows?.item(node, this.sessionIds(node.agentId)) ?? new vscode.TreeItem(node.path);
      case 'session': {
        const active = this.registry.activeSession;
        const hasPlans = this.plans.plans(node.agentId, node.sessionId).length + this.plans.archived(node.agentId, node.sessionId).length > 0;
        const s = this.registry.session(node.agentId, node.sessionId);
        const t = sessionItem(node, s, node.sessionId, active?.agentId === node.agentId && active.sessionId === node.sessionId, hasPlans);
        this.meters.decorate(t, node.agentId, node.sessionId);
        this.archived.decorate(t, node); // the menus' facets, before a child's (`:subagent…` ends the value)
        if (s?.parentSessionId !== undefined) decorateChild(t, s, isBackgroundChild(this.registry.session(node.agentId, s.parentSessionId), s.sessionId));
        return t;
      }
      case 'background': {
        const item = node.item;
        const name =
          item.type === 'subagent'
            ? this.registry.session(node.agentId, item.sessionId)?.title
            : backgroundName(this.names, node.agentId, node.sessionId, item);
        return backgroundItem(node, item, this.registry.session(node.agentId, node.sessionId), name);
      }
      case 'archive':
        return archiveItem(node, this.plans.archived(node.agentId, node.sessionId).length, this.plans.droppedArchived(node.agentId, node.sessionId));
      case 'plan': {
        const p = this.plans.get(node.ref);
        return p ? planTypeView(p).planItem(this.rowContext, node) : infoItem(node, vscode.l10n.t('This plan is gone.'), false);
      }
      case 'step':
      case 'field':
      case 'info':
      case 'intent':
      case 'fold': {
        const p = this.plans.get(node.ref);
        if (!p) return infoItem(node, vscode.l10n.t('(gone)'), false);
        const t = planTypeView(p).rowItem(this.rowContext, node);
        if (node.kind === 'step' && p.view.kind === 'items') this.workRows?.decorateStep(t, node.ref, node.index, p.view.plan.entries);
        if (node.kind === 'step') this.extras.decorateStep(t, node.ref, node.index);
        return t;
      }
      case 'work':
        return this.workRows?.item(node) ?? infoItem(node, vscode.l10n.t('(gone)'), false);
      default:
        return node satisfies never;
    }
  }

  /**
   * What the view is given: the same rows, except that a session still being restored hands over
   * its children once its replay has finished (or RESTORE_WAIT_MS has passed), not half of them.
   */
  readonly forView: vscode.TreeDataProvider<PlanTreeNode> = {
    onDidChangeTreeData: this.onDidChangeTreeData,
    getTreeItem: (node) => {
      this.coalescer.fetched();
      const t = this.getTreeItem(node);
      this.held.handedOut(node.id, t);
      return t;
    },
    getParent: (node) => this.getParent(node),
    getChildren: (node) => {
      this.held.childrenFetching(node?.id);
      this.coalescer.fetched();
      const pending = node?.kind === 'session' ? this.restoring?.wanted(node.agentId, node.sessionId) : undefined;
      const rows = (): PlanTreeNode[] => {
        const out = this.getChildren(node);
        this.held.childrenFetched(node?.id, out);
        return out;
      };
      return pending ? settledWithin(pending, RESTORE_WAIT_MS).then(rows) : rows();
    },
  };

  /** The rows below `node` as they are now. */
  getChildren(node?: PlanTreeNode): PlanTreeNode[] {
    if (!node) return [...(this.options.problems?.list() ?? []).map((p) => this.nodes.problem(p)), ...this.agentIds().map((a) => this.nodes.agent(a))];
    if (node.kind === 'extra') return this.extras.children(node);
    if (node.kind === 'archivedSessions') return this.archived.children(node, this.topSessions(node.agentId));
    switch (node.kind) {
      case 'agent': {
        const all = this.topSessions(node.agentId);
        const top = this.archived.visible(node.agentId, all);
        const rows = this.worktreeRows ? this.worktreeRows.agentChildren(node.agentId, top) : top.map((s) => this.nodes.session(node.agentId, s));
        return [...rows, ...this.archived.fold(node.agentId, all)];
      }
      case 'worktree':
        return this.worktreeRows?.children(node, this.archived.visible(node.agentId, this.sessionIds(node.agentId))) ?? [];
      case 'session': {
        const out: PlanTreeNode[] = this.plans
          .plans(node.agentId, node.sessionId)
          .map((p) => this.nodes.plan({ agentId: p.agentId, sessionId: p.sessionId, planId: p.planId }));
        for (const c of this.registry.children(node.agentId, node.sessionId)) out.push(this.nodes.session(node.agentId, c.sessionId));
        (this.registry.session(node.agentId, node.sessionId)?.background ?? []).forEach((b, i) => {
          // A child session listed as background is shown as its session row (marked background).
          if (b.type !== 'subagent' || !this.registry.session(node.agentId, b.sessionId)) out.push(this.nodes.background(node.agentId, node.sessionId, b, i));
        });
        if (this.workRows) out.push(...this.workRows.sessionChildren(node.agentId, node.sessionId));
        out.push(...this.extras.sessionChildren(node.agentId, node.sessionId));
        if (this.plans.archived(node.agentId, node.sessionId).length) out.push(this.nodes.archive(node.agentId, node.sessionId));
        return out;
      }
      case 'problem':
      case 'background':
        return [];
      case 'archive':
        return this.plans
          .archived(node.agentId, node.sessionId)
          .reverse()
          .map((p) => this.nodes.plan({ agentId: p.agentId, sessionId: p.sessionId, planId: p.planId, archiveId: p.archived!.archiveId }));
      case 'plan':
      case 'step':
      case 'field':
      case 'info':
      case 'intent':
      case 'fold': {
        const p = this.plans.get(node.ref);
        if (!p) return [];
        const rows = planTypeView(p).children(this.rowContext, node);
        if (!this.workRows) return rows;
        if (node.kind === 'plan') return rows.concat(this.workRows.planChildren(node.ref, p.view.kind === 'items'));
        return node.kind === 'step' && p.view.kind === 'items' ? rows.concat(this.workRows.stepChildren(node.ref, node.index)) : rows;
      }
      case 'work':
        return this.workRows?.children(node) ?? [];
      default:
        return node satisfies never;
    }
  }

  getParent(node: PlanTreeNode): PlanTreeNode | undefined {
    if (node.kind === 'extra') return this.extras.parent(node);
    if (node.kind === 'archivedSessions') return this.nodes.agent(node.agentId);
    switch (node.kind) {
      case 'problem':
      case 'agent':
        return undefined;
      case 'worktree':
        return this.nodes.agent(node.agentId);
      case 'session': {
        const parent = this.parentOf(node.agentId, node.sessionId);
        if (parent !== undefined) return this.nodes.session(node.agentId, parent);
        const archived = this.archived.parentOfSession(node.agentId, node.sessionId);
        return archived ?? this.worktreeRows?.parentOfSession(node.agentId, node.sessionId) ?? this.nodes.agent(node.agentId);
      }
      case 'background':
      case 'archive':
        return this.nodes.session(node.agentId, node.sessionId);
      case 'plan':
        return node.ref.archiveId === undefined
          ? this.nodes.session(node.ref.agentId, node.ref.sessionId)
          : this.nodes.archive(node.ref.agentId, node.ref.sessionId);
      case 'step':
      case 'field':
      case 'info':
      case 'intent':
      case 'fold': {
        const p = this.plans.get(node.ref);
        return p ? planTypeView(p).parent(this.rowContext, node) : this.nodes.plan(node.ref);
      }
      case 'work':
        return this.workRows?.parent(node);
      default:
        return node satisfies never;
    }
  }

  // ------------------------------------------------------------------ lookups for commands

  /** The (interned) node of a plan. */
  planNode(ref: PlanRef): PlanNode {
    return this.nodes.plan(ref);
  }

  /**
   * The node of a plan's current step (see PlanSummary.current), or undefined when the plan has
   * none. Markdown/file plans: the task item.
   */
  currentStepNode(ref: PlanRef): StepNode | undefined {
    const p = this.plans.get(ref);
    return p ? planTypeView(p).currentStep(this.rowContext) : undefined;
  }

  /** Redraws every plan (a display setting changed). */
  refreshAll(): void {
    this.coalescer.add(ROOT);
  }

  /** The node with this TreeItem id, if it was handed out. */
  nodeById(id: string): PlanTreeNode | undefined {
    return this.nodes.get(id);
  }

  // ------------------------------------------------------------------ internals

  private agentIds(): string[] {
    const ids = this.registry.agents().map((a) => a.id);
    for (const a of this.plans.agentIds()) if (!ids.includes(a)) ids.push(a);
    return ids;
  }

  /** The parent of a child session, when that parent is shown (else the child is shown at the top level). */
  private parentOf(agentId: string, sessionId: string): string | undefined {
    const parent = this.registry.session(agentId, sessionId)?.parentSessionId;
    return parent !== undefined && parent !== sessionId && this.registry.session(agentId, parent) ? parent : undefined;
  }

  private topSessions(agentId: string): string[] {
    return this.sessionIds(agentId).filter((s) => this.parentOf(agentId, s) === undefined);
  }

  private sessionIds(agentId: string): string[] {
    const ids = this.registry.sessions(agentId).map((s) => s.sessionId);
    for (const s of this.plans.sessionIds(agentId)) if (!ids.includes(s)) ids.push(s);
    return ids;
  }

  private onPlanChange(c: PlanChange): void {
    switch (c.kind) {
      case 'added':
        this.coalescer.add(sessionNodeId(c.agentId, c.sessionId));
        break;
      case 'updated':
        this.coalescer.add(planNodeId(c));
        break;
      case 'removed':
        this.nodes.forget(planNodeId({ agentId: c.agentId, sessionId: c.sessionId, planId: c.planId }));
        this.coalescer.add(sessionNodeId(c.agentId, c.sessionId));
        break;
      case 'cleared':
        this.nodes.forget(c.sessionId === undefined ? agentNodeId(c.agentId) : sessionNodeId(c.agentId, c.sessionId));
        this.coalescer.add(c.sessionId === undefined ? ROOT : agentNodeId(c.agentId));
        break;
    }
  }

  private onIntentChange(agentId: string, sessionId: string): void {
    for (const p of this.plans.plans(agentId, sessionId)) {
      if (p.view.kind === 'intent') this.coalescer.add(planNodeId({ agentId, sessionId, planId: p.planId }));
    }
  }

  private onRegistryChange(c: StoreChange): void {
    if (c.scope === 'agent') this.coalescer.add(c.kind === 'updated' ? agentNodeId(c.agentId) : ROOT);
    else if (c.scope === 'session') this.coalescer.add(c.kind === 'updated' ? sessionNodeId(c.agentId, c.sessionId) : agentNodeId(c.agentId));
    else for (const k of [c.previous, c.current]) if (k) this.coalescer.add(sessionNodeId(k.agentId, k.sessionId));
  }

  private flush(ids: ReadonlySet<string>): FlushResult {
    const targets = new Map<string, PlanTreeNode>();
    for (const id of ids) {
      const n = id === ROOT ? undefined : this.nodes.nearest(id);
      if (!n) return this.fire(undefined);
      // A session still being restored is refreshed once, when it is (onDidReplay).
      const owner = sessionOfNode(n);
      if (owner && this.restoring?.pending(owner.agentId, owner.sessionId)) continue;
      targets.set(n.id, n);
    }
    // An ancestor's refresh covers its descendants.
    const fire = [...targets.values()].filter((n) => {
      for (let p = parentIdOf(n.id); p !== undefined; p = parentIdOf(p)) if (targets.has(p)) return false;
      return true;
    });
    // Only the rows that changed, when VS Code holds them with their children (heldRows.ts).
    const narrowed = fire.flatMap((n) => this.held.narrow(n, this.rowSource));
    return narrowed.length ? this.fire(narrowed) : 'none';
  }

  private fire(e: PlanTreeNode[] | undefined): FlushResult {
    this._refreshEvents++;
    const fetch = this.held.fired(e?.map((n) => n.id));
    this._onDidChangeTreeData.fire(e);
    return fetch ? 'fetch' : 'noFetch';
  }
}

export { agentNodeId, archiveNodeId, planNodeId, sessionNodeId };
