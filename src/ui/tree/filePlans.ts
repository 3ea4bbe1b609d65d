// Keeps file plans' text in the plan store: for every live `file` plan with an absolute `file:`
// URI, reads the file and watches its folder for changes to it (one FileSystemWatcher per plan,
// disposed when the plan goes away or points elsewhere). Other URIs are refused with a reason.
import * as vscode from 'vscode';
import { checkPlanFileUri } from '../../state/planFileUri';
import type { PlanChange, PlanRef, PlanStore } from '../../state/planStore';

/** Larger files are shown cut to this many bytes. */
export const MAX_PLAN_FILE_BYTES = 1024 * 1024;

interface Tracked {
  readonly uri: string;
  readonly disposables: vscode.Disposable[];
  generation: number;
}

export class FilePlanSync implements vscode.Disposable {
  private readonly tracked = new Map<string, Tracked>();
  private readonly subscription: { dispose(): void };
  private readonly loading = new Set<Promise<void>>();

  constructor(private readonly plans: PlanStore) {
    this.subscription = plans.onDidChange((c) => this.onChange(c));
    for (const p of plans.allPlans()) this.sync(p);
  }

  /** Resolves when every read started so far has landed in the store. */
  async whenLoaded(): Promise<void> {
    while (this.loading.size) await Promise.all([...this.loading]);
  }

  /** Number of plans currently watched. */
  get watched(): number { return [...this.tracked.values()].filter((t) => t.disposables.length).length; }

  dispose(): void {
    this.subscription.dispose();
    for (const k of [...this.tracked.keys()]) this.untrack(k);
  }

  private onChange(c: PlanChange): void {
    if (c.kind === 'cleared') {
      const prefix = c.sessionId === undefined ? `${c.agentId}\0` : `${c.agentId}\0${c.sessionId}\0`;
      for (const k of [...this.tracked.keys()]) if (k.startsWith(prefix)) this.untrack(k);
      return;
    }
    const ref = { agentId: c.agentId, sessionId: c.sessionId, planId: c.planId };
    if (c.kind === 'removed') { this.untrack(key(ref)); return; }
    const p = this.plans.get(ref);
    if (p) this.sync(p);
  }

  private sync(p: { agentId: string; sessionId: string; planId: string; plan: { type: string; uri?: string } }): void {
    const ref: PlanRef = { agentId: p.agentId, sessionId: p.sessionId, planId: p.planId };
    const k = key(ref);
    const uri = p.plan.type === 'file' ? p.plan.uri : undefined;
    const cur = this.tracked.get(k);
    if (cur && cur.uri === uri) return;
    this.untrack(k);
    if (uri === undefined) return;

    const t: Tracked = { uri, disposables: [], generation: 0 };
    this.tracked.set(k, t);
    const check = checkPlanFileUri(uri);
    if (!check.ok) { this.plans.setFileContent(ref, { error: `refused: ${check.reason}` }, uri); return; }
    let target: vscode.Uri;
    try { target = vscode.Uri.parse(uri, true); } catch { this.plans.setFileContent(ref, { error: 'refused: not a valid URI' }, uri); return; }

    const dir = vscode.Uri.joinPath(target, '..');
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, '*'));
    const same = (u: vscode.Uri): boolean => u.fsPath === target.fsPath;
    t.disposables.push(
      watcher,
      watcher.onDidChange((u) => { if (same(u)) this.load(ref, t, target); }),
      watcher.onDidCreate((u) => { if (same(u)) this.load(ref, t, target); }),
      watcher.onDidDelete((u) => { if (same(u)) { t.generation++; this.plans.setFileContent(ref, { error: 'not found' }, uri); } }),
    );
    this.load(ref, t, target);
  }

  private load(ref: PlanRef, t: Tracked, target: vscode.Uri): void {
    const generation = ++t.generation;
    const p = (async () => {
      let state: { text: string } | { error: string };
      try {
        const bytes = await vscode.workspace.fs.readFile(target);
        const cut = bytes.byteLength > MAX_PLAN_FILE_BYTES;
        const text = new TextDecoder('utf-8').decode(cut ? bytes.subarray(0, MAX_PLAN_FILE_BYTES) : bytes);
        state = { text: cut ? `${text}\n\n(cut at ${MAX_PLAN_FILE_BYTES} bytes)` : text };
      } catch (err) {
        state = { error: describeError(err) };
      }
      // A newer read (or a delete) supersedes this one; a plan that moved on ignores it.
      if (generation === t.generation && this.tracked.get(key(ref)) === t) this.plans.setFileContent(ref, state, t.uri);
    })();
    this.loading.add(p);
    void p.finally(() => this.loading.delete(p));
  }

  private untrack(k: string): void {
    const t = this.tracked.get(k);
    if (!t) return;
    this.tracked.delete(k);
    t.generation++;
    for (const d of t.disposables.splice(0)) d.dispose();
  }
}

function key(ref: PlanRef): string { return `${ref.agentId}\0${ref.sessionId}\0${ref.planId}`; }

function describeError(err: unknown): string {
  if (err instanceof vscode.FileSystemError) {
    if (err.code === 'FileNotFound' || err.code === 'EntryNotFound') return 'not found';
    if (err.code === 'FileIsADirectory' || err.code === 'EntryIsADirectory') return 'is a folder';
    if (err.code === 'NoPermissions') return 'no permission to read it';
  }
  const code = (err as { code?: unknown }).code;
  if (code === 'ENOENT') return 'not found';
  return 'could not be read';
}
