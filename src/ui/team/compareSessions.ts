// Compare Sessions…: two worktree sessions side by side. Their plans (steps matched by content,
// what one did that the other did not, each step's progress) as a read-only text document, and
// their changes against their base commit in VS Code's multi-diff editor (`vscode.changes`), the
// originals served read-only from `git show <base>:<path>`.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { WorktreeRecord } from '../../app/team/worktreeSessions';
import type { SessionKey } from '../../state/sessionStore';
import { compareText, type StepIn } from '../../worktrees/planCompare';
import { changesSince, showFile } from '../../worktrees/repo';
import type { TeamCommandDeps } from './teamCommands';

export const COMPARE_SCHEME = 'acp-compare';
export const BASE_SCHEME = 'acp-worktree-base';

const texts = new Map<string, string>();
let registered: vscode.Disposable | undefined;

/**
 * The two read-only providers, registered with the first comparison (or conflict) and owned by
 * the extension. BASE_SCHEME serves `git show <rev>:<path>` of `?repo=&rev=` (a conflict's stages: rev `:1`, `:2`, `:3`).
 */
export function ensureProviders(own: (d: vscode.Disposable) => void): void {
  if (registered) return;
  registered = vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, { provideTextDocumentContent: (uri) => texts.get(uri.path) ?? '' }),
    vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        const q = new URLSearchParams(uri.query);
        return showFile(q.get('repo') ?? '', q.get('rev') ?? '', uri.path.replace(/^\//, ''));
      },
    }),
  );
  own(registered);
  own({ dispose: () => (registered = undefined) });
}

/** The steps of a session's items plans, in order. */
function steps(deps: TeamCommandDeps, r: { agentId: string; sessionId: string }): StepIn[] {
  return deps.plans
    .plans(r.agentId, r.sessionId)
    .flatMap((p) => (p.view.kind === 'items' ? p.view.plan.entries.map((e) => ({ content: e.content, status: e.status })) : []));
}

function label(deps: TeamCommandDeps, r: WorktreeRecord): string {
  const agent = deps.agentChoices().find((c) => c.id === r.agentId)?.name ?? r.agentId;
  return `${agent} on ${r.branch}`;
}

async function pickTwo(deps: TeamCommandDeps, x: unknown, y: unknown): Promise<[WorktreeRecord, WorktreeRecord] | undefined> {
  const rec = (v: unknown): WorktreeRecord | undefined => {
    const k = v as SessionKey | undefined;
    return k && typeof k.agentId === 'string' && typeof k.sessionId === 'string' ? deps.sessions.of(k.agentId, k.sessionId) : undefined;
  };
  const all = deps.sessions.all();
  if (all.length < 2)
    throw new Error(
      vscode.l10n.t('Compare Sessions needs two sessions in worktrees: start them with Run Prompt on Several Agents… or New Session in Worktree….'),
    );
  const a = rec(x) ?? (await pick(deps, all, vscode.l10n.t('First session')));
  if (!a) return undefined;
  const b =
    rec(y) ??
    (await pick(
      deps,
      all.filter((r) => r !== a),
      vscode.l10n.t('Compare with'),
    ));
  return b ? [a, b] : undefined;
}

async function pick(deps: TeamCommandDeps, list: readonly WorktreeRecord[], placeHolder: string): Promise<WorktreeRecord | undefined> {
  const items = list.map((r) => ({ label: label(deps, r), description: r.path, r }));
  return (await vscode.window.showQuickPick(items, { placeHolder }))?.r;
}

async function diffTuples(r: WorktreeRecord): Promise<[vscode.Uri, vscode.Uri | undefined, vscode.Uri | undefined][]> {
  const changes = await changesSince(r.path, r.baseCommit);
  const query = new URLSearchParams({ repo: r.repo, rev: r.baseCommit }).toString();
  return changes.map((c) => {
    const file = vscode.Uri.file(path.join(r.path, c.path));
    const base = vscode.Uri.from({ scheme: BASE_SCHEME, path: `/${c.path}`, query });
    return [file, c.status === 'A' ? undefined : base, c.status === 'D' ? undefined : file];
  });
}

/** Opens the plans' comparison and the multi-diff editor; returns the comparison's text (tests). */
export async function compareSessions(deps: TeamCommandDeps, x?: unknown, y?: unknown): Promise<string | undefined> {
  const two = await pickTwo(deps, x, y);
  if (!two) return undefined;
  const [a, b] = two;
  for (const r of two)
    if (
      !(await vscode.workspace.fs.stat(vscode.Uri.file(r.path)).then(
        () => true,
        () => false,
      ))
    )
      throw new Error(vscode.l10n.t('The worktree {0} was deleted outside VS Code: its changes cannot be compared. Remove Worktree… forgets it.', r.path));
  ensureProviders(deps.own);
  const text = compareText(label(deps, a), label(deps, b), steps(deps, a), steps(deps, b));
  const key = `/${a.sessionId}-${b.sessionId}.txt`;
  texts.set(key, text);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: COMPARE_SCHEME, path: key }));
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
  const tuples = [...(await diffTuples(a)), ...(await diffTuples(b))];
  if (tuples.length) await vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('Changes: {0} ↔ {1}', label(deps, a), label(deps, b)), tuples);
  else void vscode.window.showInformationMessage(vscode.l10n.t('Neither session changed a file against its base.'));
  return text;
}
