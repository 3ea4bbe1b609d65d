// The plan commands. Each accepts a tree element or a PlanRef as its first argument (context
// menu, other code, tests) and asks for a plan from the palette when given none. They return
// what they produced, so tests can check it without reading the UI. Loaded the first time one of
// them runs (dist/plan-commands.js; their ids are registered at activation by lazyCommands.ts).
import * as vscode from 'vscode';
import type { PlanRecord, PlanRef, PlanStore } from '../state/planStore';
import type { SessionStore } from '../state/sessionStore';
import { render, type PlanDocuments } from './planDocuments';
import { isPlanRef, refOf, resolvePlan } from './planPick';
import { planTypeView } from './planTypes';
import { focusPlan } from './statusBarText';
import { PLAN_COMMANDS, type CommandTable, type IdsOf } from './lazyCommands';
import type { PlanTreeNode } from './tree/nodes';
import type { PlansTreeProvider } from './tree/plansTreeProvider';

/** The Show Plan History row of the step timeline. */
const TIMELINE = -1;

export interface PlanCommandDeps {
  readonly registry: SessionStore;
  readonly plans: PlanStore;
  readonly tree: PlansTreeProvider;
  readonly documents: PlanDocuments;
  readonly treeView?: vscode.TreeView<PlanTreeNode>;
  /** Default `acp.plans`. */
  readonly viewId?: string;
  /** Opens a plan's step timeline and drift (a row of Show Plan History). */
  readonly timeline?: (ref: PlanRef) => Promise<vscode.Uri | undefined>;
}

export class PlanCommands {
  constructor(private readonly deps: PlanCommandDeps) {}

  /** Shows the Plans view and focuses it. */
  async focusPlans(): Promise<boolean> {
    await vscode.commands.executeCommand(`${this.deps.viewId ?? 'acp.plans'}.focus`);
    return true;
  }

  /**
   * Reveals and selects the current step of a plan (without an argument: of the active session's
   * focus plan, as the status bar shows it), or the plan itself when it has no current step.
   * Returns the id of the revealed tree node.
   */
  async revealCurrentStep(arg?: unknown): Promise<string | undefined> {
    const p = (arg === undefined ? this.activeFocusPlan() : undefined) ?? (await this.resolve(arg, vscode.l10n.t('Reveal Current Step')));
    if (!p) return undefined;
    const { tree, treeView } = this.deps;
    tree.flushNow();
    const node = tree.currentStepNode(refOf(p)) ?? tree.planNode(refOf(p));
    if (treeView) {
      if (!treeView.visible) await this.focusPlans();
      await treeView.reveal(node, { select: true, focus: true, expand: true });
    }
    return node.id;
  }

  /**
   * Lists the plan's kept revisions; pick two to compare them in the diff editor (one: compared
   * with the revision before it). `versions` skips the pick. Returns the documents shown.
   */
  async showPlanHistory(arg?: unknown, versions?: number[]): Promise<vscode.Uri[] | undefined> {
    const p = await this.resolve(arg, vscode.l10n.t('Show Plan History'));
    if (!p) return undefined;
    let chosen = versions?.filter((v) => p.revisions.some((r) => r.version === v));
    if (!chosen) {
      const timeline =
        this.deps.timeline && !p.archived
          ? [
              {
                label: `$(history) ${vscode.l10n.t('Step timeline and drift')}`,
                description: vscode.l10n.t('when each step started and finished; entries added, dropped, reordered'),
                detail: undefined,
                version: TIMELINE,
              },
            ]
          : [];
      const picked = await vscode.window.showQuickPick(
        [
          ...timeline,
          ...[...p.revisions].reverse().map((r) => ({
            label: `v${r.version}`,
            description: new Date(r.time).toLocaleString(),
            detail: r.summary.header + (r.truncated ? ` ${vscode.l10n.t('(truncated: {0} left out)', r.truncated)}` : ''),
            version: r.version,
          })),
        ],
        {
          canPickMany: true,
          title: p.droppedRevisions
            ? vscode.l10n.t('History of {0} ({1} kept, {2} older dropped)', p.planId, p.revisions.length, p.droppedRevisions)
            : vscode.l10n.t('History of {0} ({1} kept)', p.planId, p.revisions.length),
          placeHolder: vscode.l10n.t('Pick two revisions to compare, or one to compare with the one before it'),
        },
      );
      chosen = picked?.map((x) => x.version);
      if (chosen?.includes(TIMELINE)) {
        const uri = await this.deps.timeline?.(refOf(p));
        return uri && [uri];
      }
    }
    if (!chosen || chosen.length === 0) return undefined;
    const sorted = [...new Set(chosen)].sort((a, b) => a - b).slice(-2);
    if (sorted.length === 1) {
      const before = p.revisions.filter((r) => r.version < sorted[0]!).at(-1);
      if (before) sorted.unshift(before.version);
    }
    const ref = refOf(p);
    const uris = sorted.map((version) => this.deps.documents.uri(ref, { view: 'revision', version }));
    if (uris.length === 2) {
      await vscode.commands.executeCommand('vscode.diff', uris[0], uris[1], `${p.planId}: v${sorted[0]} ↔ v${sorted[1]}`, { preview: true });
    } else {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uris[0]!), { preview: true });
    }
    return uris;
  }

  /** Copies the plan as a Markdown checklist; returns the text. */
  async copyPlanAsMarkdown(arg?: unknown): Promise<string | undefined> {
    const p = await this.resolve(arg, vscode.l10n.t('Copy Plan as Markdown'));
    if (!p) return undefined;
    const md = render(p, { view: 'markdown' });
    await vscode.env.clipboard.writeText(md);
    vscode.window.setStatusBarMessage(vscode.l10n.t('Copied plan {0} as Markdown', p.planId), 3000);
    return md;
  }

  /**
   * Saves the plan as Markdown, or as JSON with its kept revisions when the file name ends in
   * `.json`. `target` skips the save dialog. Returns the file written.
   */
  async exportPlan(arg?: unknown, target?: vscode.Uri): Promise<vscode.Uri | undefined> {
    const p = await this.resolve(arg, vscode.l10n.t('Export Plan'));
    if (!p) return undefined;
    if (!target) {
      const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
      const name = `${p.planId.replace(/[^\w.-]+/g, '_') || 'plan'}.md`;
      target = await vscode.window.showSaveDialog({
        title: vscode.l10n.t('Export plan {0}', p.planId),
        ...(folder ? { defaultUri: vscode.Uri.joinPath(folder, name) } : {}),
        filters: { Markdown: ['md'], JSON: ['json'] },
      });
      if (!target) return undefined;
    }
    const text = target.path.toLowerCase().endsWith('.json') ? exportJson(p) : render(p, { view: 'markdown' });
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    return target;
  }

  /** Opens the plan's raw JSON (for unknown types, the payload as received) read-only. */
  async showRawPlan(arg?: unknown): Promise<vscode.Uri | undefined> {
    const p = await this.resolve(arg, vscode.l10n.t('Show Raw JSON'));
    if (!p) return undefined;
    const uri = this.deps.documents.uri(refOf(p), { view: 'json' });
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: true });
    return uri;
  }

  /**
   * Opens a plan as its type does (src/ui/planTypes/): a file plan's file (a regular file, never
   * a system file; outside the workspace too, since the user asked), an unknown type's raw JSON,
   * otherwise its Markdown rendering in the Markdown preview (read-only, VS Code's sanitizer).
   */
  async openPlan(arg?: unknown): Promise<vscode.Uri | undefined> {
    const p = await this.resolve(arg, vscode.l10n.t('Open Plan'));
    if (!p) return undefined;
    return planTypeView(p).open({
      previewMarkdown: async (plan) => {
        const uri = this.deps.documents.uri(refOf(plan), { view: 'markdown' });
        await vscode.workspace.openTextDocument(uri);
        await vscode.commands.executeCommand('markdown.showPreview', uri);
        return uri;
      },
      showRaw: (plan) => this.showRawPlan(refOf(plan)),
    });
  }

  private activeFocusPlan(): PlanRecord | undefined {
    const a = this.deps.registry.activeSession;
    return a ? focusPlan(this.deps.plans.plans(a.agentId, a.sessionId)) : undefined;
  }

  private resolve(arg: unknown, title: string): Promise<PlanRecord | undefined> {
    if (isPlanRef(arg) && !this.deps.plans.get(arg)) {
      void vscode.window.showWarningMessage(vscode.l10n.t('The plan {0} is no longer available.', arg.planId));
      return Promise.resolve(undefined);
    }
    return resolvePlan(arg, this.deps.registry, this.deps.plans, title);
  }
}

/** The JSON export: the plan, its summary and every kept revision. */
export function exportJson(p: PlanRecord): string {
  return (
    JSON.stringify(
      {
        format: 'acp-plans/plan-export',
        exportedAt: new Date().toISOString(),
        agentId: p.agentId,
        sessionId: p.sessionId,
        planId: p.planId,
        version: p.version,
        header: p.summary.header,
        summary: p.summary,
        ...(p.archived ? { archivedAt: new Date(p.archived.removedAt).toISOString() } : {}),
        plan: p.plan,
        revisions: p.revisions.map((r) => ({ version: r.version, time: new Date(r.time).toISOString(), plan: r.plan })),
        droppedRevisions: p.droppedRevisions,
      },
      null,
      2,
    ) + '\n'
  );
}

/** The handler of each plan command. */
export function planCommands(deps: PlanCommandDeps): CommandTable<IdsOf<typeof PLAN_COMMANDS>> {
  const c = new PlanCommands(deps);
  return {
    [PLAN_COMMANDS.focusPlans]: () => c.focusPlans(),
    [PLAN_COMMANDS.revealCurrentStep]: (arg?: unknown) => c.revealCurrentStep(arg),
    [PLAN_COMMANDS.showPlanHistory]: (arg?: unknown, versions?: unknown) => {
      // From a tree menu the second argument is the selection, not versions.
      const nums = Array.isArray(versions) ? versions.filter((v): v is number => typeof v === 'number') : [];
      return c.showPlanHistory(arg, nums.length ? nums : undefined);
    },
    [PLAN_COMMANDS.copyPlanAsMarkdown]: (arg?: unknown) => c.copyPlanAsMarkdown(arg),
    [PLAN_COMMANDS.exportPlan]: (arg?: unknown, target?: unknown) => c.exportPlan(arg, target instanceof vscode.Uri ? target : undefined),
    [PLAN_COMMANDS.showRawPlan]: (arg?: unknown) => c.showRawPlan(arg),
    [PLAN_COMMANDS.openPlan]: (arg?: unknown) => c.openPlan(arg),
  };
}
