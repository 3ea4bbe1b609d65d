// Markdown plans that name their file (`path`): the tree shows the agent's `content`; this offers
// "Open Plan File" and follows the file while it lies inside a workspace folder (never reads or
// opens one outside it). When the file changes on disk and differs from the plan, the user is told
// once per plan revision and may open the file or refresh the plan from it (a new revision).
// At most MAX_WATCHED files are watched; watchers go with their plan.
import * as path from 'path';
import { pathToFileURL } from 'url';
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../common/lifecycle';
import { workspaceRoots } from '../platform/workspace';
import { decidePlanFile } from '../state/planFileUri';
import type { PlanChange, PlanRecord, PlanRef, PlanStore } from '../state/planStore';
import { readPlanFile } from './tree/planFileRead';

export const OPEN_PLAN_FILE = 'acp.openPlanFile';
const MAX_WATCHED = 50;

interface Watched {
  file: string;
  version: number;
  told: number;
  dispose(): void;
}

const key = (r: PlanRef): string => `${r.agentId}\0${r.sessionId}\0${r.planId}`;

/** The plan's file when it is inside the workspace, else why not. */
export function planFileInWorkspace(p: PlanRecord): { file: string } | { reason: string } | undefined {
  if (p.plan.type !== 'markdown' || !p.plan.path) return undefined;
  if (!path.isAbsolute(p.plan.path)) return { reason: `the agent named a relative path (${p.plan.path.slice(0, 200)})` };
  const d = decidePlanFile(pathToFileURL(p.plan.path).href, workspaceRoots(), undefined, vscode.l10n);
  return d.ok ? { file: d.path } : { reason: d.reason };
}

export class MarkdownPlanFiles extends Disposable {
  private readonly watched = new Map<string, Watched>();

  constructor(private readonly plans: PlanStore) {
    super();
    this._register(
      toDisposable(() => {
        for (const w of this.watched.values()) w.dispose();
        this.watched.clear();
      }),
    );
    this._register(vscode.commands.registerCommand(OPEN_PLAN_FILE, (arg?: unknown) => this.open(arg)));
    this._register(plans.onDidChange((c) => this.onChange(c)));
    for (const p of plans.allPlans()) this.sync(p);
  }

  /** Opens the plan's file (a tree row or a PlanRef); says why when it is not in the workspace. */
  async open(arg: unknown): Promise<boolean> {
    const ref = arg as Partial<PlanRef> | undefined;
    const p = ref?.agentId && ref.sessionId && ref.planId ? this.plans.get({ agentId: ref.agentId, sessionId: ref.sessionId, planId: ref.planId }) : undefined;
    const where = p && planFileInWorkspace(p);
    if (!where) {
      void vscode.window.showInformationMessage(vscode.l10n.t('This plan names no file. Use "Open Plan" to read it.'));
      return false;
    }
    if ('reason' in where) {
      void vscode.window.showWarningMessage(
        vscode.l10n.t('The plan\'s file is not opened: {0}. The plan\'s text from the agent is shown in the Plans view ("Open Plan").', where.reason),
      );
      return false;
    }
    await vscode.window.showTextDocument(vscode.Uri.file(where.file), { preview: true });
    return true;
  }

  private onChange(c: PlanChange): void {
    if (c.kind === 'cleared') {
      const prefix = c.sessionId === undefined ? `${c.agentId}\0` : `${c.agentId}\0${c.sessionId}\0`;
      for (const [k, w] of this.watched)
        if (k.startsWith(prefix)) {
          w.dispose();
          this.watched.delete(k);
        }
      return;
    }
    const p = c.kind === 'removed' ? undefined : this.plans.get(c);
    if (p) this.sync(p);
    else this.unwatch(key(c));
  }

  private sync(p: PlanRecord): void {
    const k = key(p);
    const where = planFileInWorkspace(p);
    const file = where && 'file' in where ? where.file : undefined;
    const cur = this.watched.get(k);
    if (cur && cur.file === file) {
      cur.version = p.version;
      return;
    }
    this.unwatch(k);
    if (!file || this.watched.size >= MAX_WATCHED) return;
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(path.dirname(file)), path.basename(file)));
    const w: Watched = {
      file,
      version: p.version,
      told: -1,
      dispose: () => {
        changed.dispose();
        watcher.dispose();
      },
    };
    const changed = watcher.onDidChange(() => void this.fileChanged(p, w));
    this.watched.set(k, w);
  }

  private unwatch(k: string): void {
    this.watched.get(k)?.dispose();
    this.watched.delete(k);
  }

  /** The file changed: if it now differs from the plan, say so once for this revision. */
  private async fileChanged(ref: PlanRef, w: Watched): Promise<void> {
    if (w.told === w.version) return;
    const read = await readPlanFile(w.file, workspaceRoots(), undefined, vscode.l10n);
    const p = this.plans.get(ref);
    if (!('text' in read) || p?.plan.type !== 'markdown' || read.text === p.plan.content || w.told === p.version) return;
    w.told = p.version;
    const open = vscode.l10n.t('Open Plan File');
    // A file too large to read whole is only offered to open: a plan is never replaced by a cut copy.
    const refresh = read.cut ? undefined : vscode.l10n.t('Refresh Plan from File');
    const pick = await vscode.window.showInformationMessage(
      vscode.l10n.t('The plan file {0} changed on disk since the agent\'s last update of plan "{1}".', path.basename(w.file), p.planId),
      open,
      ...(refresh ? [refresh] : []),
    );
    if (pick === open) await this.open(ref);
    const now = this.plans.get(ref);
    if (pick === refresh && now?.plan.type === 'markdown') this.plans.update(ref.agentId, ref.sessionId, { ...now.plan, content: read.text });
  }
}
