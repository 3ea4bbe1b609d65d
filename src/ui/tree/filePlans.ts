// Keeps file plans' text in the plan store. For every live `file` plan whose URI decidePlanFile
// (src/state/planFileUri.ts) allows, reads the file (readPlanFile: regular files only, non-blocking,
// size-capped) and watches its folder for changes to it. A file outside the workspace folders is
// not read: its row says why and offers to open it. At most `maxWatchers` plans are watched
// (later ones are read once, and say so); watchers are disposed when a plan goes away or points
// elsewhere. Workspace folder changes decide every plan again.
import * as vscode from 'vscode';
import { Disposable, DisposableStore, toDisposable } from '../../common/lifecycle';
import { decidePlanFile } from '../../state/planFileUri';
import type { PlanChange, PlanRef, PlanStore } from '../../state/planStore';
import { MAX_PLAN_FILE_BYTES, readPlanFile } from './planFileRead';

export { MAX_PLAN_FILE_BYTES } from './planFileRead';

export const MAX_WATCHED_PLAN_FILES = 50;

export interface FilePlanSyncOptions {
  /** The workspace folders (absolute paths); default: the `file:` folders of the workspace. */
  readonly roots?: () => readonly string[];
  readonly maxWatchers?: number;
  readonly maxBytes?: number;
}

interface Tracked {
  readonly uri: string;
  readonly disposables: DisposableStore;
  generation: number;
  watched: boolean;
}

export class FilePlanSync extends Disposable {
  private readonly tracked = new Map<string, Tracked>();
  private readonly loading = new Set<Promise<void>>();

  private readonly roots: () => readonly string[];
  private readonly maxWatchers: number;
  private readonly maxBytes: number;

  constructor(
    private readonly plans: PlanStore,
    options: FilePlanSyncOptions = {},
  ) {
    super();
    this.roots = options.roots ?? workspaceRoots;
    this.maxWatchers = options.maxWatchers ?? MAX_WATCHED_PLAN_FILES;
    this.maxBytes = options.maxBytes ?? MAX_PLAN_FILE_BYTES;
    this._register(
      toDisposable(() => {
        for (const k of [...this.tracked.keys()]) this.untrack(k);
      }),
    );
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.resyncAll()));
    this._register(plans.onDidChange((c) => this.onChange(c)));
    for (const p of plans.allPlans()) this.sync(p);
  }

  /** Resolves when every read started so far has landed in the store. */
  async whenLoaded(): Promise<void> {
    while (this.loading.size) await Promise.all([...this.loading]);
  }

  /** Number of plans currently watched. */
  get watched(): number {
    return [...this.tracked.values()].filter((t) => t.watched).length;
  }

  private onChange(c: PlanChange): void {
    if (c.kind === 'cleared') {
      const prefix = c.sessionId === undefined ? `${c.agentId}\0` : `${c.agentId}\0${c.sessionId}\0`;
      for (const k of [...this.tracked.keys()]) if (k.startsWith(prefix)) this.untrack(k);
      return;
    }
    const ref = { agentId: c.agentId, sessionId: c.sessionId, planId: c.planId };
    if (c.kind === 'removed') {
      this.untrack(key(ref));
      return;
    }
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

    const t: Tracked = { uri, disposables: new DisposableStore(), generation: 0, watched: false };
    this.tracked.set(k, t);
    const decision = decidePlanFile(uri, this.roots(), undefined, vscode.l10n);
    if (!decision.ok) {
      this.plans.setFileContent(ref, { error: decision.reason, offerOpen: decision.offerOpen }, uri);
      return;
    }
    const target = vscode.Uri.file(decision.path);

    if (this.watched < this.maxWatchers) {
      const dir = vscode.Uri.joinPath(target, '..');
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, '*'));
      const same = (u: vscode.Uri): boolean => u.fsPath === target.fsPath;
      t.watched = true;
      t.disposables.add(watcher);
      t.disposables.add(
        watcher.onDidChange((u) => {
          if (same(u)) this.load(ref, t, decision.path);
        }),
      );
      t.disposables.add(
        watcher.onDidCreate((u) => {
          if (same(u)) this.load(ref, t, decision.path);
        }),
      );
      t.disposables.add(
        watcher.onDidDelete((u) => {
          if (same(u)) {
            t.generation++;
            this.plans.setFileContent(ref, { error: vscode.l10n.t('not found') }, uri);
          }
        }),
      );
    }
    this.load(ref, t, decision.path);
  }

  private load(ref: PlanRef, t: Tracked, file: string): void {
    const generation = ++t.generation;
    const p = (async () => {
      const read = await readPlanFile(file, this.roots(), this.maxBytes, vscode.l10n);
      let state: { text: string } | { error: string; offerOpen?: boolean };
      if ('text' in read) {
        state = {
          text: t.watched
            ? read.text
            : `${read.text}\n\n${vscode.l10n.t('(not watched: more than {0} file plans are open; changes to this file are not followed)', this.maxWatchers)}`,
        };
      } else state = { error: read.error, ...(read.offerOpen ? { offerOpen: true } : {}) };
      // A newer read (or a delete) supersedes this one; a plan that moved on ignores it.
      if (generation === t.generation && this.tracked.get(key(ref)) === t) this.plans.setFileContent(ref, state, t.uri);
    })();
    this.loading.add(p);
    void p.finally(() => this.loading.delete(p));
  }

  /** Decides every live file plan again (the workspace folders changed). */
  private resyncAll(): void {
    for (const k of [...this.tracked.keys()]) this.untrack(k);
    for (const p of this.plans.allPlans()) this.sync(p);
  }

  private untrack(k: string): void {
    const t = this.tracked.get(k);
    if (!t) return;
    this.tracked.delete(k);
    t.generation++;
    t.disposables.dispose();
  }
}

function key(ref: PlanRef): string {
  return `${ref.agentId}\0${ref.sessionId}\0${ref.planId}`;
}

function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}
