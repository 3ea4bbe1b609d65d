// Opens agent edits in VS Code's diff editor. v1 diffs carry the old and new texts; v2 diffs
// carry a git patch, from which before/after are rebuilt against the file as it is now; when
// that fails the patch itself is shown as a read-only document. The file is read only when
// diffAccess.ts allows it: a regular file of at most 16 MiB, inside the workspace folders, or
// elsewhere after the user said yes to a modal that names it.
import * as vscode from 'vscode';
import { Disposable, toDisposable } from '../../common/lifecycle';
import type { ToolCallContent } from '../../protocol/domain';
import { decideDiffRead, MAX_DIFF_READ_BYTES, readCapped } from './diffAccess';
import { findFilePatch, parsePatch, reconstruct } from './patch';

type DiffContent = Extract<ToolCallContent, { type: 'diff' }>;

const SCHEME = 'acp-diff';
const MAX_DOCS = 200;

/** Read-only documents (`acp-diff:` URIs) holding the texts shown in diff editors. */
export class DiffDocuments extends Disposable implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private seq = 0;

  constructor() {
    super();
    this._register(toDisposable(() => this.docs.clear()));
    this._register(vscode.workspace.registerTextDocumentContentProvider(SCHEME, this));
  }

  provideTextDocumentContent(uri: vscode.Uri): string | undefined {
    return this.docs.get(uri.query);
  }

  /** A URI whose path ends like `path` (so the language is detected) and whose content is `text`. */
  add(path: string, label: string, text: string): vscode.Uri {
    const key = `${++this.seq}-${label}`;
    this.docs.set(key, text);
    if (this.docs.size > MAX_DOCS) this.docs.delete(this.docs.keys().next().value as string);
    const p = path.replace(/\\/g, '/');
    return vscode.Uri.from({ scheme: SCHEME, path: p.startsWith('/') ? p : `/${p}`, query: key });
  }

  async open(content: DiffContent, file: number): Promise<void> {
    const change = content.changes[file] ?? content.changes[0];
    const path = change?.path ?? content.texts?.[0]?.path;
    if (!path) return;
    const name = path.split(/[\\/]/).pop() ?? path;
    const texts = content.texts?.find((t) => t.path === path);
    if (texts) {
      const left = this.add(path, 'before', texts.oldText ?? '');
      const right = this.add(path, 'after', texts.newText);
      await vscode.commands.executeCommand('vscode.diff', left, right, vscode.l10n.t('{0} (agent edit)', name), { preview: true });
      return;
    }
    if (content.patch) {
      const files = parsePatch(content.patch.text);
      const fp = findFilePatch(files, path) ?? files[file];
      const read = await readForDiff(path);
      const fileUri = read ? vscode.Uri.file(read.path) : undefined;
      const current = read?.text;
      const r = fp ? reconstruct(fp, current) : null;
      if (r) {
        const left = this.add(path, 'before', r.before);
        const right = fileUri && current !== undefined && r.after === current ? fileUri : this.add(path, 'after', r.after);
        await vscode.commands.executeCommand('vscode.diff', left, right, vscode.l10n.t('{0} (agent edit)', name), { preview: true });
        return;
      }
      const doc = await vscode.workspace.openTextDocument(this.add(`${path}.diff`, 'patch', content.patch.text));
      await vscode.languages.setTextDocumentLanguage(doc, 'diff');
      await vscode.window.showTextDocument(doc, { preview: true });
      return;
    }
    const read = await readForDiff(path);
    if (read) await vscode.window.showTextDocument(vscode.Uri.file(read.path), { preview: true });
    else void vscode.window.showInformationMessage(vscode.l10n.t('The agent sent no diff text for {0}.', name));
  }
}

/** A file URI for an absolute path, or a path relative to the first workspace folder. */
export function toUri(path: string): vscode.Uri | undefined {
  if (/^[a-zA-Z]:[\\/]/.test(path) || path.startsWith('/')) return vscode.Uri.file(path);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, path) : undefined;
}

/** The current text of the file a diff names, if diffAccess.ts (or the user) allows reading it. */
async function readForDiff(p: string): Promise<{ path: string; text: string } | undefined> {
  const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  const decision = await decideDiffRead(p, roots, MAX_DIFF_READ_BYTES, vscode.l10n);
  if (decision.kind === 'refuse') {
    if (!decision.missing) {
      void vscode.window.showWarningMessage(vscode.l10n.t("Open Diff did not read {0}: {1}. The agent's patch is shown as sent.", decision.path, decision.why));
    }
    return undefined;
  }
  if (decision.kind === 'ask') {
    const readFile = vscode.l10n.t('Read File');
    const pick = await vscode.window.showWarningMessage(
      vscode.l10n.t("The agent's diff names {0}, and {1}. Read it to show the diff?", decision.path, decision.why),
      { modal: true, detail: vscode.l10n.t("Without it, the agent's patch is shown as sent.") },
      readFile,
    );
    if (pick !== readFile) return undefined;
  }
  try {
    const uri = vscode.Uri.file(decision.path);
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    return { path: decision.path, text: open ? open.getText() : await readCapped(decision.real, MAX_DIFF_READ_BYTES, vscode.l10n) };
  } catch (err) {
    void vscode.window.showWarningMessage(vscode.l10n.t('Open Diff could not read {0}: {1}', decision.path, err instanceof Error ? err.message : String(err)));
    return undefined;
  }
}
