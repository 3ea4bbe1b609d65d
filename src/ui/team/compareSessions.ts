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
let changed: vscode.EventEmitter<vscode.Uri> | undefined;
let registered: vscode.Disposable | undefined;

/**
 * The two read-only providers, registered with the first comparison (or conflict) and owned by
 * the extension. BASE_SCHEME serves `?repo=&rev=&file=` through `read` (a conflict's stages: rev
 * `:1`, `:2`, `:3`); its path is the file's own path, so that a diff sees one file on both sides.
 */
export function ensureProviders(own: (d: vscode.Disposable) => void, read: ReadRevision): void {
  if (registered) return;
  changed = new vscode.EventEmitter<vscode.Uri>();
  registered = vscode.Disposable.from(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(COMPARE_SCHEME, {
      onDidChange: changed.event,
      provideTextDocumentContent: (uri) => texts.get(uri.path) ?? '',
    }),
    vscode.workspace.registerTextDocumentContentProvider(BASE_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        const q = new URLSearchParams(uri.query);
        return read(q.get('repo') ?? '', q.get('rev') ?? '', q.get('file') ?? '');
      },
    }),
  );
  own(registered);
  own({ dispose: () => (registered = undefined) });
}

/** `file` (relative to `repo`) at `rev`, read-only, under the path of `shownAt`. */
export function revisionUri(shownAt: vscode.Uri, repo: string, rev: string, file: string, extra: Record<string, string> = {}): vscode.Uri {
  return shownAt.with({ scheme: BASE_SCHEME, query: new URLSearchParams({ repo, rev, file, ...extra }).toString() });
}

type Tuple = [vscode.Uri, vscode.Uri | undefined, vscode.Uri | undefined];

/** The multi-diff editor's rows of one session: each changed file against its base commit (the same path both sides: a change, not a rename). */
function diffTuples(change: Comparison['changes'][number]): Tuple[] {
  const r = change.record;
  return change.files.map((c): Tuple => {
    const file = vscode.Uri.file(path.join(r.path, c.path));
    const base = revisionUri(file, r.repo, r.baseCommit, c.path);
    return [file, c.status === 'A' ? undefined : base, c.status === 'D' ? undefined : file];
  });
}

/** The comparison document's path: its tab title names both sessions (no `/`, which would cut the name). */
function documentPath(c: Comparison): string {
  const name = (s: string): string => s.replace(/[\\/]+/g, '-');
  return `/${vscode.l10n.t('Compare {0} ↔ {1}', name(c.a.name), name(c.b.name))}`;
}

/** Opens the plans' comparison and the multi-diff editor of both sessions' changes. */
export async function showComparison(own: (d: vscode.Disposable) => void, read: ReadRevision, c: Comparison): Promise<void> {
  ensureProviders(own, read);
  const uri = vscode.Uri.from({ scheme: COMPARE_SCHEME, path: documentPath(c) });
  const again = texts.has(uri.path);
  texts.set(uri.path, c.text);
  if (again) changed?.fire(uri); // compared before: the open document shows the new text
  const doc = await vscode.workspace.openTextDocument(uri);
  await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
  const tuples = c.changes.flatMap(diffTuples);
  if (tuples.length) await vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('Changes: {0} ↔ {1}', c.a.name, c.b.name), tuples);
  else void vscode.window.showInformationMessage(vscode.l10n.t('Neither session changed a file against its base.'));
}
