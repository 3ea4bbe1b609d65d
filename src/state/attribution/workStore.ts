// The work index: which plan step each tool call, file change, terminal and agent message belongs
// to. Fed the same session events as the other stores (synchronously, in arrival order, with the
// time they arrived: a restored session replays its records with their times) plus the client's
// own file writes. vscode-free.
//
// Attribution, for each piece of work when it first appears:
//   1. an explicit link, `_meta["acp-plans/planEntry"] = {planId, index?}` (or a list of them), on
//      the tool call, the message or the terminal: that entry of that plan (no index: the plan as a
//      whole); a link to a plan the session does not have is ignored (docs/API.md);
//   2. otherwise every entry in progress at that moment, in every plan of the session;
//   3. otherwise, when no entry is in progress, the most recently updated live plan without
//      entries (markdown, file, custom: the plan as a whole);
//   4. otherwise "Unplanned".
// A client write (fs/write_text_file) belongs to the tool call in progress that names the same
// path (a diff or a location), so to that call's steps; without one, to the steps as above.
// A later explicit link on a tool call moves the call (and its files) to the linked entry.
//
// A diff without full texts for a file keeps the file's section of its patch instead (the review
// rebuilds the texts from it: patchTexts.ts).
// Bounds: texts of file changes up to MAX_TEXT_CHARS each and MAX_SESSION_TEXT_CHARS per session,
// patch sections counted with them (over them the change is listed without content: review and
// revert say so); MAX_CALLS tool calls per session (the oldest forgotten first); per plan, see
// steps.ts.
import { Disposable } from '../../common/lifecycle';
import type { Event } from '../../protocol/api';
import type { Meta, SessionEvent, ToolCallContent, ToolCallFields } from '../../protocol/domain';
import { Emitter } from '../emitter';
import {
  filePath,
  linkOf,
  MAX_CALLS,
  MAX_SESSION_TEXT_CHARS,
  MAX_TEXT_CHARS,
  MAX_TITLE,
  remove,
  sameSteps,
  SessionWork,
  type CallInfo,
  type CheckpointInterval,
  type FileChange,
  type OwnerRef,
  type WorkChange,
} from './sessionWork';
import { keptPatches } from './patchSection';
import { PlanTrack, WHOLE_PLAN, type Step } from './steps';

export {
  MAX_CALLS,
  MAX_SESSION_TEXT_CHARS,
  MAX_TEXT_CHARS,
  PLAN_ENTRY_META_KEY,
  type CallInfo,
  type CheckpointInterval,
  type CheckpointSpan,
  type FileChange,
  type OwnerRef,
  type StepRef,
  type WorkChange,
} from './sessionWork';

/** A file's changes in a step (or a turn, a session): the first, the last, all in order. */
export interface FileChanges {
  readonly path: string;
  first: FileChange;
  last: FileChange;
  readonly all: FileChange[];
}

/** Files listed per checkpoint interval (a tool that rewrote a whole tree lists the first ones). */
export const MAX_INTERVAL_FILES = 5000;

export { DROPPED, MAX_DRIFT, PlanTrack, WHOLE_PLAN, type DriftRecord, type Step } from './steps';

export interface WorkStoreOptions {
  /** The session's working folder (its worktree): a relative path the agent names is resolved against it. */
  cwd?(agentId: string, sessionId: string): string | undefined;
}

export class WorkStore extends Disposable {
  private readonly _onDidChange = this._register(new Emitter<WorkChange>());
  readonly onDidChange: Event<WorkChange> = this._onDidChange.event;
  private readonly byAgent = new Map<string, Map<string, SessionWork>>();
  private touched = new Set<Step>();

  constructor(private readonly options: WorkStoreOptions = {}) {
    super();
  }

  apply(agentId: string, e: SessionEvent, time: number): void {
    const w = this.session(agentId, e.sessionId, true);
    // Only tool calls name files: the folder is looked up for them alone (text chunks are the hot path).
    if (e.kind === 'tool_call' || e.kind === 'tool_call_content_chunk') w.cwd = this.options.cwd?.(agentId, e.sessionId) ?? w.cwd;
    switch (e.kind) {
      case 'plan_update': {
        let t = w.plans.get(e.plan.planId);
        if (!t) w.plans.set(e.plan.planId, (t = new PlanTrack(e.plan.planId)));
        t.update(e.plan, time); // the plan store's own change refreshes these rows
        return;
      }
      case 'plan_removed':
        w.plans.get(e.planId)?.remove(time);
        return;
      case 'tool_call':
        this.toolCall(w, e.toolCallId, e.fields, time);
        break;
      case 'tool_call_content_chunk':
        this.toolCall(w, e.toolCallId, { content: [e.content] }, time, true);
        break;
      case 'message_chunk':
      case 'message':
        if (e.role !== 'user' && !w.messages.has(e.messageId)) {
          w.messages.add(e.messageId);
          for (const s of this.owners(w, e._meta)) this.add(s, s.messages, e.messageId, true);
        }
        break;
      case 'terminal_update':
      case 'terminal_output_chunk':
        this.terminal(w, e.terminalId, this.owners(w, e._meta));
        break;
      default:
        return;
    }
    this.flush(agentId, e.sessionId, w);
  }

  /** A write the client made for the agent (fs/write_text_file): `before` null when the file was new. */
  recordWrite(agentId: string, sessionId: string, named: string, before: string | null, after: string, time: number): void {
    const w = this.session(agentId, sessionId, true);
    w.cwd = this.options.cwd?.(agentId, sessionId) ?? w.cwd;
    const path = filePath(w.cwd, named);
    let call: CallInfo | undefined;
    for (const c of w.open) if (c.paths?.has(path)) call = c;
    const owners = call ? call.owners : this.owners(w, undefined);
    this.addChange(w, { path, before, after, written: true, time, owners, ...(call ? { toolCallId: call.toolCallId } : {}) });
    this.flush(agentId, sessionId, w);
  }

  /** The steps that own work appearing now (rules 2–4), by their stable identity: a checkpoint interval starting now goes to them. */
  ownerRefs(agentId: string, sessionId: string): OwnerRef[] {
    const w = this.session(agentId, sessionId, true);
    return this.owners(w, undefined).map((s) => (s === w.unplanned ? { key: s.key } : { planId: s.planId!, key: s.key }));
  }

  /**
   * The files a workspace folder changed between two checkpoints. Each file goes to the steps of
   * the wire's own changes of that path since the interval began (a diff, a client write: explicit
   * links stay right), else to the interval's owners. Every owner remembers the checkpoint it began
   * from (Restore Workspace to Before This Step).
   */
  recordInterval(agentId: string, sessionId: string, iv: CheckpointInterval, time: number): void {
    const w = this.session(agentId, sessionId, true);
    const owners: Step[] = [];
    for (const r of iv.owners) {
      const s = r.planId === undefined ? w.unplanned : w.plans.get(r.planId)?.step(r.key);
      if (s && !owners.includes(s)) owners.push(s);
    }
    if (!owners.length) owners.push(w.unplanned);
    for (const s of owners) if (!s.before?.some((b) => b.folder === iv.folder)) (s.before ??= []).push({ folder: iv.folder, id: iv.from });
    const wire = new Map<string, Set<Step>>(); // the wire's changes since the interval began, newest first
    for (let i = w.changes.length - 1; i >= 0 && w.changes[i]!.time >= iv.since; i--) {
      const c = w.changes[i]!;
      if (c.checkpoint) continue;
      let set = wire.get(c.path);
      if (!set) wire.set(c.path, (set = new Set()));
      for (const s of c.owners) set.add(s);
    }
    for (const f of iv.files.slice(0, MAX_INTERVAL_FILES)) {
      const seen = wire.get(f.path);
      // A step the wire names began no later than this interval (its checkpoint came after its first change).
      for (const s of seen ?? []) if (!s.before?.some((b) => b.folder === iv.folder)) (s.before ??= []).push({ folder: iv.folder, id: iv.from });
      const checkpoint = { folder: iv.folder, from: iv.from, to: iv.to, status: f.status, added: f.added, removed: f.removed, binary: f.binary };
      this.addChange(w, { path: f.path, before: undefined, after: undefined, written: false, time, checkpoint, owners: seen ? [...seen] : owners });
    }
    this.flush(agentId, sessionId, w);
  }

  // ------------------------------------------------------------------ queries

  track(agentId: string, sessionId: string, planId: string): PlanTrack | undefined {
    return this.session(agentId, sessionId, false)?.plans.get(planId);
  }

  /** The step at a plan's current index (WHOLE_PLAN: the plan as a whole). */
  stepAt(agentId: string, sessionId: string, planId: string, index: number): Step | undefined {
    const t = this.track(agentId, sessionId, planId);
    return index === WHOLE_PLAN ? t?.whole : t?.byIndex[index];
  }

  unplanned(agentId: string, sessionId: string): Step | undefined {
    return this.session(agentId, sessionId, false)?.unplanned;
  }

  call(agentId: string, sessionId: string, toolCallId: string): CallInfo | undefined {
    return this.session(agentId, sessionId, false)?.calls.get(toolCallId);
  }

  /** The changes of one step, per file: the first `before` and the last `after` of the step. */
  stepChanges(agentId: string, sessionId: string, step: Step): FileChanges[] {
    return this.changesWhere(agentId, sessionId, (c) => c.owners.includes(step));
  }

  /** The changes of a whole session (or since a time: a turn), per file, whatever step they belong to. */
  sessionChanges(agentId: string, sessionId: string, since = 0): FileChanges[] {
    return this.changesWhere(agentId, sessionId, (c) => c.time >= since);
  }

  private changesWhere(agentId: string, sessionId: string, keep: (c: FileChange) => boolean): FileChanges[] {
    const out = new Map<string, FileChanges>();
    for (const c of this.session(agentId, sessionId, false)?.changes ?? []) {
      if (!keep(c)) continue;
      const f = out.get(c.path);
      if (f) {
        f.last = c;
        f.all.push(c);
      } else out.set(c.path, { path: c.path, first: c, last: c, all: [c] });
    }
    return [...out.values()];
  }

  /** Ids of the transcript items of a step: tool calls, messages (`m:<role>:<id>` is the transcript's). */
  stepItems(step: Step): { calls: readonly string[]; messages: readonly string[] } {
    return { calls: step.calls, messages: step.messages };
  }

  clearSession(agentId: string, sessionId: string): void {
    this.byAgent.get(agentId)?.delete(sessionId);
  }
  clearAgent(agentId: string): void {
    this.byAgent.delete(agentId);
  }

  // ------------------------------------------------------------------ internals

  private session(agentId: string, sessionId: string, create: true): SessionWork;
  private session(agentId: string, sessionId: string, create: false): SessionWork | undefined;
  private session(agentId: string, sessionId: string, create: boolean): SessionWork | undefined {
    let m = this.byAgent.get(agentId);
    if (!m) {
      if (!create) return undefined;
      this.byAgent.set(agentId, (m = new Map()));
    }
    let w = m.get(sessionId);
    if (!w && create) m.set(sessionId, (w = new SessionWork()));
    return w;
  }

  private toolCall(w: SessionWork, id: string, f: ToolCallFields, time: number, chunk = false): void {
    let c = w.calls.get(id);
    const explicit = linkOf(w, f._meta);
    if (!c) {
      c = { toolCallId: id, title: '', kind: 'other', status: 'pending', owners: explicit ?? this.owners(w, undefined), time };
      w.calls.set(id, c);
      w.callOrder.push(id);
      for (const s of c.owners) this.add(s, s.calls, id, true);
      this.forgetOldCalls(w);
    } else if (explicit && !sameSteps(explicit, c.owners)) {
      this.move(w, c, explicit);
    }
    if (typeof f.title === 'string') c.title = f.title.length > MAX_TITLE ? `${f.title.slice(0, MAX_TITLE - 1)}…` : f.title;
    if (typeof f.kind === 'string') c.kind = f.kind;
    if (typeof f.status === 'string' && f.status !== c.status) {
      c.status = f.status;
      for (const s of c.owners) this.touched.add(s);
    }
    if (c.status === 'pending' || c.status === 'in_progress') w.open.add(c);
    else w.open.delete(c);
    for (const l of f.locations ?? []) (c.paths ??= new Set()).add(filePath(w.cwd, l.path));
    for (const content of f.content ?? []) this.content(w, c, content, time);
    if (chunk) for (const s of c.owners) this.touched.add(s);
  }

  private content(w: SessionWork, c: CallInfo, content: ToolCallContent, time: number): void {
    if (content.type === 'terminal') {
      this.terminal(w, content.terminalId, c.owners);
      return;
    }
    if (content.type !== 'diff') return;
    const texts = new Map((content.texts ?? []).map((t) => [filePath(w.cwd, t.path), t]));
    const paths = (c.paths ??= new Set());
    const fresh = content.changes.filter((ch) => !paths.has(`diff:${filePath(w.cwd, ch.path)}`)); // a re-sent diff of the same call adds nothing
    // A file without full texts keeps its section of the patch (patchTexts.ts rebuilds the texts from it).
    const patches =
      content.patch &&
      keptPatches(
        content.patch.text,
        fresh.flatMap((ch) => (texts.has(ch.path) ? [] : [ch.path])),
      );
    for (const ch of fresh) {
      const path = filePath(w.cwd, ch.path);
      if (paths.has(`diff:${path}`)) continue; // the same path twice in one diff
      paths.add(path);
      paths.add(`diff:${path}`);
      const t = texts.get(path);
      this.addChange(w, {
        path,
        before: t ? t.oldText : ch.operation === 'add' ? null : undefined,
        after: t?.newText,
        written: false,
        toolCallId: c.toolCallId,
        time,
        owners: c.owners,
        ...patches?.get(ch.path),
      });
    }
  }

  private terminal(w: SessionWork, terminalId: string, owners: Step[]): void {
    if (w.terminals.has(terminalId)) return;
    w.terminals.add(terminalId);
    for (const s of owners) this.add(s, s.terminals, terminalId);
  }

  private addChange(w: SessionWork, change: FileChange): void {
    let c = change;
    const size = (c.before?.length ?? 0) + (c.after?.length ?? 0) + (c.patch?.length ?? 0);
    if (size > 2 * MAX_TEXT_CHARS || w.textChars + size > MAX_SESSION_TEXT_CHARS) {
      const { patch: _dropped, ...rest } = c;
      c = { ...rest, before: undefined, after: undefined, textDropped: true };
    } else w.textChars += size;
    w.changes.push(c);
    for (const s of c.owners) this.add(s, s.files, c.path);
  }

  /** Moves a call (and its file changes) to other steps. */
  private move(w: SessionWork, c: CallInfo, owners: Step[]): void {
    for (const s of c.owners) {
      remove(s.calls, c.toolCallId);
      this.touched.add(s);
    }
    c.owners = owners;
    for (const s of owners) this.add(s, s.calls, c.toolCallId);
    for (const ch of w.changes) {
      if (ch.toolCallId !== c.toolCallId) continue;
      ch.owners = owners;
      for (const s of owners) this.add(s, s.files, ch.path);
    }
  }

  private forgetOldCalls(w: SessionWork): void {
    if (w.calls.size <= MAX_CALLS) return;
    // Not the Map's first key: a Map that many keys were deleted from walks past them on every
    // `keys().next()`.
    const oldest = w.callOrder[w.callsHead++];
    if (w.callsHead > 4096 && w.callsHead * 2 > w.callOrder.length) {
      w.callOrder = w.callOrder.slice(w.callsHead);
      w.callsHead = 0;
    }
    if (oldest === undefined) return;
    const c = w.calls.get(oldest);
    if (c) {
      w.open.delete(c);
      for (const s of c.owners) {
        remove(s.calls, oldest);
        this.touched.add(s);
      } // its steps no longer list it
    }
    w.calls.delete(oldest);
    w.forgottenCalls++;
  }

  /** Who owns work that appears now (rules 1–4 of the header). */
  private owners(w: SessionWork, meta: Meta): Step[] {
    const explicit = linkOf(w, meta);
    if (explicit) return explicit;
    const active: Step[] = [];
    let whole: PlanTrack | undefined;
    for (const t of w.plans.values()) {
      if (!t.live) continue;
      if (t.itemsPlan) active.push(...t.active());
      else if (!whole || t.updatedAt >= whole.updatedAt) whole = t;
    }
    if (active.length) return active;
    return [whole ? whole.whole : w.unplanned];
  }

  /** Adds `id` to a step's list; `isNew`: the caller knows no list has it yet (no look through a long list). */
  private add(s: Step, list: string[], id: string, isNew = false): void {
    if (isNew || !list.includes(id)) list.push(id);
    this.touched.add(s);
  }

  private flush(agentId: string, sessionId: string, w: SessionWork): void {
    if (!this.touched.size) return;
    const steps: { planId: string; index: number }[] = [];
    let unplanned = false;
    for (const s of this.touched) {
      if (s === w.unplanned) {
        unplanned = true;
        continue;
      }
      if (s.planId !== undefined && w.plans.has(s.planId)) steps.push({ planId: s.planId, index: s.index });
    }
    this.touched = new Set();
    this._onDidChange.fire({ agentId, sessionId, steps, unplanned });
  }
}
