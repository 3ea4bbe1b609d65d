// The Plans tree: Agent → Session → Plan → steps, with an "Archived" node per session for plans
// the agent removed. Sessions and agents are those of the registry plus any that hold plans (a
// closed session's plans stay visible until the plan store drops them).
//
// Refresh: store changes name the node that changed; ids are collected by a FrameCoalescer and
// flushed at most once per frame, firing only the changed nodes (an ancestor covers its
// descendants); `undefined` (full refresh) is fired only for root-level changes.
//
// `_intent` plans: when an intent source is given, their node shows the verification and their
// children the goal, the user, the steps with their usage and the calls outside the plan (see
// intentItems.ts); a change of a session's intent state refreshes its `_intent` plan nodes.
import * as vscode from 'vscode';
import { INTENT_PLAN_TYPE } from '../../intent';
import type { MdNode } from '../../state/markdownPlan';
import { outlineTasks } from '../../state/markdownPlan';
import type { PlanChange, PlanRecord, PlanRef, PlanStore } from '../../state/planStore';
import type { SessionStore, StoreChange } from '../../state/sessionStore';
import { FrameCoalescer } from '../coalesce';
import type { ActiveIntentView, IntentNodeView, IntentSource } from '../intent/intentView';
import { intentPlanItem, intentRowItem, intentRows } from './intentItems';
import {
  NodeIndex, agentNodeId, archiveNodeId, parentIdOf, planNodeId, sessionNodeId,
  type IntentNode, type PlanNode, type PlanTreeNode, type StepNode,
} from './nodes';
import { agentItem, archiveItem, entryItem, fieldItem, infoItem, mdItem, planItem, sessionItem } from './treeItems';

const ROOT = '';

export class PlansTreeProvider implements vscode.TreeDataProvider<PlanTreeNode>, vscode.Disposable {
  private readonly _onDidChangeTreeData = new vscode.EventEmitter<PlanTreeNode | PlanTreeNode[] | undefined>();
  readonly onDidChangeTreeData = this._onDidChangeTreeData.event;

  private readonly nodes = new NodeIndex();
  private readonly coalescer: FrameCoalescer<string>;
  private readonly subscriptions: { dispose(): void }[] = [];
  private _refreshEvents = 0;

  constructor(private readonly registry: SessionStore, private readonly plans: PlanStore, frameMs = 16, private readonly intent?: IntentSource) {
    this.coalescer = new FrameCoalescer<string>((ids) => this.flush(ids), frameMs);
    this.subscriptions.push(
      this._onDidChangeTreeData, this.coalescer,
      plans.onDidChange((c) => this.onPlanChange(c)),
      registry.onDidChange((c) => this.onRegistryChange(c)),
    );
    if (intent) this.subscriptions.push(intent.onDidChange((c) => this.onIntentChange(c.agentId, c.sessionId)));
  }

  /** How many times onDidChangeTreeData fired. */
  get refreshEvents(): number { return this._refreshEvents; }

  /** Resolves once pending changes have been fired. */
  whenIdle(): Promise<void> { return this.coalescer.whenIdle(); }
  /** Fires pending changes now. */
  flushNow(): void { this.coalescer.flushNow(); }

  // ------------------------------------------------------------------ TreeDataProvider

  getTreeItem(node: PlanTreeNode): vscode.TreeItem {
    switch (node.kind) {
      case 'agent': return agentItem(node, this.registry.agent(node.agentId), node.agentId);
      case 'session': {
        const active = this.registry.activeSession;
        const hasPlans = this.plans.plans(node.agentId, node.sessionId).length + this.plans.archived(node.agentId, node.sessionId).length > 0;
        return sessionItem(node, this.registry.session(node.agentId, node.sessionId), node.sessionId,
          active?.agentId === node.agentId && active.sessionId === node.sessionId, hasPlans);
      }
      case 'archive': return archiveItem(node, this.plans.archived(node.agentId, node.sessionId).length);
      case 'plan': {
        const p = this.plans.get(node.ref);
        if (!p) return infoItem(node, 'This plan is gone.', false);
        const intent = this.intentView(p);
        return intent ? intentPlanItem(node, p, intent) : planItem(node, p);
      }
      case 'intent': {
        const p = this.plans.get(node.ref);
        return intentRowItem(node, p && this.intentView(p));
      }
      case 'step': {
        const p = this.plans.get(node.ref);
        if (p?.plan.type === 'items' && p.plan.entries[node.index]) return entryItem(node, p.plan.entries[node.index]!, node.index);
        const md = p?.outline?.flat[node.index];
        return md ? mdItem(node, md) : infoItem(node, '(gone)', false);
      }
      case 'field': {
        const p = this.plans.get(node.ref);
        return fieldItem(node, node.key, p?.plan.type === 'unknown' ? p.plan.raw[node.key] : undefined);
      }
      case 'info': {
        const info = this.infoText(this.plans.get(node.ref));
        return infoItem(node, info?.text ?? '', info?.warning ?? false);
      }
    }
  }

  getChildren(node?: PlanTreeNode): PlanTreeNode[] {
    if (!node) return this.agentIds().map((a) => this.nodes.agent(a));
    switch (node.kind) {
      case 'agent': return this.sessionIds(node.agentId).map((s) => this.nodes.session(node.agentId, s));
      case 'session': {
        const out: PlanTreeNode[] = this.plans.plans(node.agentId, node.sessionId)
          .map((p) => this.nodes.plan({ agentId: p.agentId, sessionId: p.sessionId, planId: p.planId }));
        if (this.plans.archived(node.agentId, node.sessionId).length) out.push(this.nodes.archive(node.agentId, node.sessionId));
        return out;
      }
      case 'archive':
        return this.plans.archived(node.agentId, node.sessionId).reverse()
          .map((p) => this.nodes.plan({ agentId: p.agentId, sessionId: p.sessionId, planId: p.planId, archiveId: p.archived!.archiveId }));
      case 'plan': return this.planChildren(node);
      case 'intent': {
        const p = node.part === 'outside' ? this.plans.get(node.ref) : undefined;
        const view = p && this.intentView(p);
        return view?.kind === 'active' ? view.outside.map((c) => this.nodes.intent(node.ref, 'call', c.toolCallId)) : [];
      }
      case 'step': {
        const md = this.plans.get(node.ref)?.outline?.flat[node.index];
        return md ? md.children.map((c) => this.nodes.step(node.ref, c.index)) : [];
      }
      default: return [];
    }
  }

  getParent(node: PlanTreeNode): PlanTreeNode | undefined {
    switch (node.kind) {
      case 'agent': return undefined;
      case 'session': return this.nodes.agent(node.agentId);
      case 'archive': return this.nodes.session(node.agentId, node.sessionId);
      case 'plan': return node.ref.archiveId === undefined
        ? this.nodes.session(node.ref.agentId, node.ref.sessionId)
        : this.nodes.archive(node.ref.agentId, node.ref.sessionId);
      case 'step': {
        const outline = this.plans.get(node.ref)?.outline;
        const parent = outline ? findMdParent(outline.roots, node.index) : undefined;
        return parent ? this.nodes.step(node.ref, parent.index) : this.nodes.plan(node.ref);
      }
      case 'intent': return node.part === 'call' ? this.nodes.intent(node.ref, 'outside') : this.nodes.plan(node.ref);
      default: return this.nodes.plan(node.ref);
    }
  }

  // ------------------------------------------------------------------ lookups for commands

  /** The (interned) node of a plan. */
  planNode(ref: PlanRef): PlanNode { return this.nodes.plan(ref); }

  /**
   * The node of a plan's current step (see PlanSummary.current), or undefined when the plan has
   * none. Markdown/file plans: the task item.
   */
  currentStepNode(ref: PlanRef): StepNode | undefined {
    const p = this.plans.get(ref);
    const cur = p?.summary.current;
    if (!p || !cur) return undefined;
    if (p.plan.type === 'items') return this.nodes.step(ref, cur.index);
    const task = p.outline ? outlineTasks(p.outline)[cur.index] : undefined;
    return task ? this.nodes.step(ref, task.index) : undefined;
  }

  /** The node with this TreeItem id, if it was handed out. */
  nodeById(id: string): PlanTreeNode | undefined { return this.nodes.get(id); }

  dispose(): void {
    for (const d of this.subscriptions.splice(0)) d.dispose();
  }

  // ------------------------------------------------------------------ internals

  private planChildren(node: PlanNode): PlanTreeNode[] {
    const p = this.plans.get(node.ref);
    if (!p) return [];
    const ref = node.ref;
    const intent = this.intentView(p);
    if (intent?.kind === 'active') return this.intentChildren(ref, intent);
    switch (p.plan.type) {
      case 'items':
        this.nodes.forgetStepsFrom(ref, p.plan.entries.length);
        return p.plan.entries.length ? p.plan.entries.map((_, i) => this.nodes.step(ref, i)) : [this.nodes.info(ref)];
      case 'unknown': {
        const keys = Object.keys(p.plan.raw).filter((k) => k !== 'type' && k !== 'planId');
        return keys.length ? keys.map((k) => this.nodes.field(ref, k)) : [this.nodes.info(ref)];
      }
      default: {
        const o = p.outline;
        if (o) this.nodes.forgetStepsFrom(ref, o.flat.length);
        const info = this.infoText(p);
        const out: PlanTreeNode[] = info ? [this.nodes.info(ref)] : [];
        return out.concat((o?.roots ?? []).map((r) => this.nodes.step(ref, r.index)));
      }
    }
  }

  /** The view of an `_intent` plan from the intent source; undefined renders it as an unknown type. */
  private intentView(p: PlanRecord): IntentNodeView | undefined {
    if (!this.intent || p.plan.type !== 'unknown' || p.plan.rawType !== INTENT_PLAN_TYPE) return undefined;
    return this.intent.view({ agentId: p.agentId, sessionId: p.sessionId, planId: p.planId, ...(p.archived ? { archiveId: p.archived.archiveId } : {}) });
  }

  private intentChildren(ref: PlanRef, view: ActiveIntentView): IntentNode[] {
    const rows = intentRows(view).map((r) => this.nodes.intent(ref, r.part, r.key));
    const calls = view.outside.map((c) => this.nodes.intent(ref, 'call', c.toolCallId));
    this.nodes.forgetIntentRowsExcept(ref, new Set([...rows, ...calls].map((n) => n.id)));
    return rows;
  }

  /** What the info child of a plan says, if it has one. */
  private infoText(p: PlanRecord | undefined): { text: string; warning: boolean } | undefined {
    if (!p) return undefined;
    switch (p.plan.type) {
      case 'items': return p.plan.entries.length ? undefined : { text: 'No steps yet.', warning: false };
      case 'unknown': return { text: `No fields besides type and planId.`, warning: false };
      case 'markdown': return p.outline?.flat.length ? undefined : { text: 'No headings or checkboxes. Use "Open Plan" to read it.', warning: false };
      case 'file':
        if (p.file?.error !== undefined) return { text: `Can't show ${p.plan.uri}: ${p.file.error}`, warning: true };
        if (p.file?.text === undefined) return { text: `Loading ${p.plan.uri}…`, warning: false };
        return p.outline?.flat.length ? undefined : { text: 'No headings or checkboxes. Use "Open Plan" to read the file.', warning: false };
    }
  }

  private agentIds(): string[] {
    const ids = this.registry.agents().map((a) => a.id);
    for (const a of this.plans.agentIds()) if (!ids.includes(a)) ids.push(a);
    return ids;
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
      if (p.plan.type === 'unknown' && p.plan.rawType === INTENT_PLAN_TYPE) this.coalescer.add(planNodeId({ agentId, sessionId, planId: p.planId }));
    }
  }

  private onRegistryChange(c: StoreChange): void {
    if (c.scope === 'agent') this.coalescer.add(c.kind === 'updated' ? agentNodeId(c.agentId) : ROOT);
    else if (c.scope === 'session') this.coalescer.add(c.kind === 'updated' ? sessionNodeId(c.agentId, c.sessionId) : agentNodeId(c.agentId));
    else for (const k of [c.previous, c.current]) if (k) this.coalescer.add(sessionNodeId(k.agentId, k.sessionId));
  }

  private flush(ids: ReadonlySet<string>): void {
    const targets = new Map<string, PlanTreeNode>();
    for (const id of ids) {
      const n = id === ROOT ? undefined : this.nodes.nearest(id);
      if (!n) { this.fire(undefined); return; }
      targets.set(n.id, n);
    }
    // An ancestor's refresh covers its descendants.
    const fire = [...targets.values()].filter((n) => {
      for (let p = parentIdOf(n.id); p !== undefined; p = parentIdOf(p)) if (targets.has(p)) return false;
      return true;
    });
    if (fire.length) this.fire(fire);
  }

  private fire(e: PlanTreeNode[] | undefined): void {
    this._refreshEvents++;
    this._onDidChangeTreeData.fire(e);
  }
}

function findMdParent(nodes: readonly MdNode[], index: number, parent?: MdNode): MdNode | undefined {
  for (const n of nodes) {
    if (n.index === index) return parent;
    const found = findMdParent(n.children, index, n);
    if (found) return found;
  }
  return undefined;
}

export { agentNodeId, archiveNodeId, planNodeId, sessionNodeId };
