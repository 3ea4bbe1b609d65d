// Elements of the Plans tree: small interned key objects. The data behind a node is always read
// from the stores when VS Code asks, so a node never holds stale content.
//
// A child session (subagent) keeps its own id `<agentId>/<childId>`: it is shown under its parent
// (getParent), but its rows are never structurally below the parent's.
//
// Ids (TreeItem.id) are built from URI-encoded segments, so ids of different nodes never collide:
//   agent          <agentId>
//   session        <agentId>/<sessionId>
//   archived       <agentId>/#archived                    (archived sessions, folded; they keep their ids)
//   plan           <agentId>/<sessionId>/<planId>
//   step           <agentId>/<sessionId>/<planId>/<index>      (entry of an items plan, or the n-th
//                                                                heading/task of a Markdown outline)
//   field          <agentId>/<sessionId>/<planId>/#f:<key>     (top-level field of an unknown type)
//   info           <agentId>/<sessionId>/<planId>/#info        (file missing, refused, loading…)
//   fold           <agentId>/<sessionId>/<planId>/#fold        ("+N done steps" of a long items plan;
//                                                                its steps keep their ids)
//   intent row     <agentId>/<sessionId>/<planId>/#i:<part>[:<key>]  (goal, user, warning:<n>,
//                                                                step:<n>, outside, missing)
//   outside call   <agentId>/<sessionId>/<planId>/#i:outside/<toolCallId>
//   unchecked call <agentId>/<sessionId>/<planId>/#i:unchecked/<toolCallId>  (under the row `unchecked`)
//   background     <agentId>/<sessionId>/#bg:<type>:<id>      (work running on after the turn)
//   work of a step <step id>/#wc:<toolCallId> (a tool call), <step id>/#wf:<path> (a changed file)
//   plan's work    <plan id>/#work, and below it as above      (work of the plan as a whole)
//   unplanned      <agentId>/<sessionId>/#unplanned, and below it as above
//   archive        <agentId>/<sessionId>/#archive
//   archived plan  <agentId>/<sessionId>/#archive/<archiveId>  (its children as above)
import type { BackgroundWork } from '../../protocol/domain';
import type { PlanRef } from '../../state/planStore';

export type AgentNode = { readonly kind: 'agent'; readonly id: string; readonly agentId: string };
/** A git worktree some of the agent's sessions work in (`<agentId>/#wt:<folder>`); its sessions are shown below it. */
export type WorktreeNode = { readonly kind: 'worktree'; readonly id: string; readonly agentId: string; readonly path: string };
export type SessionNode = { readonly kind: 'session'; readonly id: string; readonly agentId: string; readonly sessionId: string };
/** The agent's archived sessions, folded below one row (`<agentId>/#archived`); its sessions keep their ids. */
export type ArchivedSessionsNode = { readonly kind: 'archivedSessions'; readonly id: string; readonly agentId: string };
/** A piece of background work of a session (terminal, tool call, or an unknown kind). */
export type BackgroundNode = {
  readonly kind: 'background';
  readonly id: string;
  readonly agentId: string;
  readonly sessionId: string;
  readonly item: BackgroundWork;
};
export type ArchiveNode = { readonly kind: 'archive'; readonly id: string; readonly agentId: string; readonly sessionId: string };
export type PlanNode = { readonly kind: 'plan'; readonly id: string; readonly ref: PlanRef };
/** An entry of an items plan (`index` into entries) or a Markdown heading/task (`index` into outline.flat). */
export type StepNode = { readonly kind: 'step'; readonly id: string; readonly ref: PlanRef; readonly index: number };
export type FieldNode = { readonly kind: 'field'; readonly id: string; readonly ref: PlanRef; readonly key: string };
export type InfoNode = { readonly kind: 'info'; readonly id: string; readonly ref: PlanRef };
/** The "+N done steps" row of a long items plan (src/state/planFold.ts). */
export type FoldNode = { readonly kind: 'fold'; readonly id: string; readonly ref: PlanRef };
/**
 * A row of an intent plan: goal, user, a warning, a step, the calls outside the plan (and each
 * call), the calls that could not be checked (and each), missing steps.
 */
export type IntentPart = 'goal' | 'user' | 'warning' | 'step' | 'outside' | 'call' | 'unchecked' | 'ucall' | 'missing';
/** `key`: the warning or step index, or the toolCallId of a call; '' for the other parts. */
export type IntentNode = { readonly kind: 'intent'; readonly id: string; readonly ref: PlanRef; readonly part: IntentPart; readonly key: string };

/**
 * Work attributed to a step (src/state/attribution): a group row ("Unplanned", a plan's own work)
 * or one tool call / changed file below a step or a group. `owner`: the step's index, WHOLE_PLAN
 * (-1) for the plan as a whole, or UNPLANNED_OWNER for the session's unplanned work.
 */
export type WorkNode = {
  readonly kind: 'work';
  readonly id: string;
  readonly agentId: string;
  readonly sessionId: string;
  readonly planId: string | undefined;
  readonly owner: number;
  readonly part: 'group' | 'call' | 'file';
  readonly key: string;
};
export const UNPLANNED_OWNER = -3;

/** A row a feature adds below a session (src/ui/tree/extraRows.ts): `source` names the feature, `key` the row. */
export type ExtraNode = {
  readonly kind: 'extra';
  readonly id: string;
  readonly agentId: string;
  readonly sessionId: string;
  readonly source: string;
  readonly key: string;
};

/** Where the Plans tree reads rejected `acp.agents` entries (plansTreeProvider's `problems`). */
export interface ConfigProblemRows {
  list(): readonly string[];
  readonly onDidChange: (listener: () => void) => { dispose(): void };
}

/** A rejected `acp.agents` entry, at the top level until the setting is fixed (`text`: why, a sentence). */
export type ProblemNode = { readonly kind: 'problem'; readonly id: string; readonly text: string };

export type PlanTreeNode =
  | ProblemNode
  | AgentNode
  | WorktreeNode
  | SessionNode
  | ArchivedSessionsNode
  | BackgroundNode
  | ArchiveNode
  | PlanNode
  | StepNode
  | FieldNode
  | InfoNode
  | IntentNode
  | FoldNode
  | WorkNode
  | ExtraNode;

const enc = encodeURIComponent;

export function agentNodeId(agentId: string): string {
  return enc(agentId);
}
export function sessionNodeId(agentId: string, sessionId: string): string {
  return `${enc(agentId)}/${enc(sessionId)}`;
}
export function archiveNodeId(agentId: string, sessionId: string): string {
  return `${sessionNodeId(agentId, sessionId)}/#archive`;
}
export function planNodeId(ref: PlanRef): string {
  return ref.archiveId === undefined
    ? `${sessionNodeId(ref.agentId, ref.sessionId)}/${enc(ref.planId)}`
    : `${archiveNodeId(ref.agentId, ref.sessionId)}/${ref.archiveId}`;
}

export function intentNodeId(ref: PlanRef, part: IntentPart, key = ''): string {
  const plan = planNodeId(ref);
  if (part === 'call') return `${plan}/#i:outside/${enc(key)}`;
  if (part === 'ucall') return `${plan}/#i:unchecked/${enc(key)}`;
  return `${plan}/#i:${part}${key === '' ? '' : `:${enc(key)}`}`;
}

/** The id of the enclosing node by id structure (`undefined` for the root). */
export function parentIdOf(id: string): string | undefined {
  const i = id.lastIndexOf('/');
  return i < 0 ? undefined : id.slice(0, i);
}

/**
 * Interned nodes by id: one object per id, for as long as the node exists. Each node is also filed
 * under its structural parent id (`parentIdOf`, interned or not), so forgetting a node and what
 * is below it costs the size of that subtree, never a scan of every node: a session whose agent
 * archives thousands of plans must not make each removal walk the whole tree.
 */
export class NodeIndex {
  private readonly byId = new Map<string, PlanTreeNode>();
  private readonly children = new Map<string, Set<string>>();

  get size(): number {
    return this.byId.size;
  }
  get(id: string): PlanTreeNode | undefined {
    return this.byId.get(id);
  }

  agent(a: string): AgentNode {
    return this.intern({ kind: 'agent', id: agentNodeId(a), agentId: a });
  }
  problem(text: string): ProblemNode {
    return this.intern({ kind: 'problem', id: `#problem:${enc(text)}`, text });
  }
  worktree(a: string, folder: string): WorktreeNode {
    return this.intern({ kind: 'worktree', id: `${agentNodeId(a)}/#wt:${enc(folder)}`, agentId: a, path: folder });
  }
  archivedSessions(a: string): ArchivedSessionsNode {
    return this.intern({ kind: 'archivedSessions', id: `${agentNodeId(a)}/#archived`, agentId: a });
  }
  session(a: string, s: string): SessionNode {
    return this.intern({ kind: 'session', id: sessionNodeId(a, s), agentId: a, sessionId: s });
  }
  background(a: string, s: string, item: BackgroundWork, index: number): BackgroundNode {
    return this.intern({ kind: 'background', id: `${sessionNodeId(a, s)}/#bg:${backgroundKey(item, index)}`, agentId: a, sessionId: s, item });
  }
  archive(a: string, s: string): ArchiveNode {
    return this.intern({ kind: 'archive', id: archiveNodeId(a, s), agentId: a, sessionId: s });
  }
  plan(ref: PlanRef): PlanNode {
    return this.intern({ kind: 'plan', id: planNodeId(ref), ref: cleanRef(ref) });
  }
  step(ref: PlanRef, index: number): StepNode {
    return this.intern({ kind: 'step', id: `${planNodeId(ref)}/${index}`, ref: cleanRef(ref), index });
  }
  field(ref: PlanRef, key: string): FieldNode {
    return this.intern({ kind: 'field', id: `${planNodeId(ref)}/#f:${enc(key)}`, ref: cleanRef(ref), key });
  }
  info(ref: PlanRef): InfoNode {
    return this.intern({ kind: 'info', id: `${planNodeId(ref)}/#info`, ref: cleanRef(ref) });
  }
  fold(ref: PlanRef): FoldNode {
    return this.intern({ kind: 'fold', id: `${planNodeId(ref)}/#fold`, ref: cleanRef(ref) });
  }
  intent(ref: PlanRef, part: IntentPart, key = ''): IntentNode {
    return this.intern({ kind: 'intent', id: intentNodeId(ref, part, key), ref: cleanRef(ref), part, key });
  }

  /** A work row: `ownerId` is the node id of the step or group it is below (the group's own id for a group). */
  work(ownerId: string, n: Omit<WorkNode, 'kind' | 'id'>): WorkNode {
    const id = n.part === 'group' ? ownerId : `${ownerId}/#w${n.part === 'call' ? 'c' : 'f'}:${enc(n.key)}`;
    return this.intern({ kind: 'work', id, ...n });
  }

  /** A feature's row below a session: `path` is its place below the session's row (`a/b`: b below a). */
  extra(agentId: string, sessionId: string, source: string, path: string): ExtraNode {
    const id = `${sessionNodeId(agentId, sessionId)}/#x:${enc(source)}:${path.split('/').map(enc).join('/')}`;
    return this.intern({ kind: 'extra', id, agentId, sessionId, source, key: path });
  }

  /** Forgets a node and everything below it. */
  forget(id: string): void {
    const all = this.subtree(id);
    for (let i = all.length - 1; i >= 0; i--) this.unintern(all[i]!); // below first, so links prune upwards
  }

  /** Forgets the intent rows of a plan that are not in `keep` (ids). */
  forgetIntentRowsExcept(ref: PlanRef, keep: ReadonlySet<string>): void {
    for (const id of this.subtree(planNodeId(ref))) {
      const n = this.byId.get(id);
      if (n?.kind === 'intent' && !keep.has(id)) this.unintern(id);
    }
  }

  /** Forgets the steps of a plan from `count` on (after the plan shrank). */
  forgetStepsFrom(ref: PlanRef, count: number): void {
    for (const id of [...(this.children.get(planNodeId(ref)) ?? [])]) {
      const n = this.byId.get(id);
      if (n?.kind === 'step' && n.index >= count) this.forget(id);
    }
  }

  /** The interned node with this id, or of its nearest interned ancestor; undefined = root. */
  nearest(id: string): PlanTreeNode | undefined {
    for (let cur: string | undefined = id; cur !== undefined; cur = parentIdOf(cur)) {
      const n = this.byId.get(cur);
      if (n) return n;
    }
    return undefined;
  }

  private intern<T extends PlanTreeNode>(n: T): T {
    const prev = this.byId.get(n.id);
    if (prev && prev.kind === n.kind) return prev as T;
    this.byId.set(n.id, n);
    // Links the node to its parent, and each ancestor to its own, up to one already linked.
    for (let child = n.id, parent = parentIdOf(child); parent !== undefined; child = parent, parent = parentIdOf(parent)) {
      let set = this.children.get(parent);
      if (!set) this.children.set(parent, (set = new Set()));
      else if (set.has(child)) break;
      set.add(child);
    }
    return n;
  }

  /** `id` and every id linked below it (parents before their children). */
  private subtree(id: string): string[] {
    const out = [id];
    for (let i = 0; i < out.length; i++) for (const c of this.children.get(out[i]!) ?? []) out.push(c);
    return out;
  }

  /** Drops one node; links that lead to nothing interned any more are pruned upwards. */
  private unintern(id: string): void {
    this.byId.delete(id);
    for (let cur = id; !this.byId.has(cur) && !this.children.get(cur)?.size;) {
      this.children.delete(cur);
      const parent = parentIdOf(cur);
      if (parent === undefined) return;
      this.children.get(parent)?.delete(cur);
      cur = parent;
    }
  }
}

function backgroundKey(item: BackgroundWork, index: number): string {
  switch (item.type) {
    case 'terminal':
      return `terminal:${enc(item.terminalId)}`;
    case 'tool_call':
      return `tool_call:${enc(item.toolCallId)}`;
    case 'subagent':
      return `subagent:${enc(item.sessionId)}`;
    case 'unknown':
      return `${enc(item.rawType)}:${index}`;
  }
}

function cleanRef(ref: PlanRef): PlanRef {
  return ref.archiveId === undefined
    ? { agentId: ref.agentId, sessionId: ref.sessionId, planId: ref.planId }
    : { agentId: ref.agentId, sessionId: ref.sessionId, planId: ref.planId, archiveId: ref.archiveId };
}

export function isPlanTreeNode(x: unknown): x is PlanTreeNode {
  if (typeof x !== 'object' || x === null) return false;
  const k = (x as { kind?: unknown }).kind;
  return (
    typeof (x as { id?: unknown }).id === 'string' &&
    (k === 'agent' ||
      k === 'session' ||
      k === 'background' ||
      k === 'archive' ||
      k === 'plan' ||
      k === 'step' ||
      k === 'field' ||
      k === 'info' ||
      k === 'intent' ||
      k === 'fold' ||
      k === 'work')
  );
}

/** The session a row belongs to (none for an agent's row). */
export function sessionOfNode(n: PlanTreeNode): { agentId: string; sessionId: string } | undefined {
  if (n.kind === 'agent' || n.kind === 'worktree' || n.kind === 'problem' || n.kind === 'archivedSessions') return undefined;
  return 'ref' in n ? n.ref : n;
}
