// The vscode side of Compare Sessions (the Team service decides what to compare, src/app/team): the
// plans' comparison as a read-only text document, and both sessions' changes against their base
// commit in VS Code's multi-diff editor (`vscode.changes`), the originals served read-only by the
// service (`git show <base>:<path>`). The same read-only provider serves the merge editor's sides.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Comparison } from '../../app/team/teamPorts';

export const COMPARE_SCHEME = 'acp-compare';
export const BASE_SCHEME = 'acp-worktree-base';

/** The text of a file at a revision of a repository ('' where it does not exist). */
export type ReadRevision = (repo: string, rev: string, file: string) => Promise<string>;

const texts = new Map<string, string>();
let registered: vscode.Disposable | undefined;

/**
 * The two read-only providers, registered with the first comparison (or conflict) and owned by
 * the extension. BASE_SCHEME serves `?repo=&rev=` through `read` (a conflict's stages: rev `:1`, `:2`, `:3`).
 */
export function ensureProviders(own: (d: vscode.Disposable) => void, read: ReadRevision): void {
  if (registered) return;
  registered = vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, { provideTextDocumentContent: (uri) => texts.get(uri.path) ?? '' }),
    vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        const q = new URLSearchParams(uri.query);
        return read(q.get('repo') ?? '', q.get('rev') ?? '', uri.path.replace(/^\//, ''));
      },
    }),
  );
  own(registered);
  own({ dispose: () => (registered = undefined) });
}

type Tuple = [vscode.Uri, vscode.Uri | undefined, vscode.Uri | undefined];

/** The multi-diff editor's rows of one session: each changed file against its base commit. */
function diffTuples(change: Comparison['changes'][number]): Tuple[] {
  const r = change.record;
  const query = new URLSearchParams({ repo: r.repo, rev: r.baseCommit }).toString();
  return change.files.map((c): Tuple => {
    const file = vscode.Uri.file(path.join(r.path, c.path));
    const base = vscode.Uri.from({ scheme: BASE_SCHEME, path: `/${c.path}`, query });
    return [file, c.status === 'A' ? undefined : base, c.status === 'D' ? undefined : file];
  });
}

/** Opens the plans' comparison and the multi-diff editor of both sessions' changes. */
export async function showComparison(own: (d: vscode.Disposable) => void, read: ReadRevision, c: Comparison): Promise<void> {
  ensureProviders(own, read);
  const key = `/${c.a.record.sessionId}-${c.b.record.sessionId}.txt`;
  texts.set(key, c.text);
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: COMPARE_SCHEME, path: key }));
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
  const tuples = c.changes.flatMap(diffTuples);
  if (tuples.length) await vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('Changes: {0} ↔ {1}', c.a.label, c.b.label), tuples);
  else void vscode.window.showInformationMessage(vscode.l10n.t('Neither session changed a file against its base.'));
}
