// Opens agent edits in VS Code's diff editor. v1 diffs carry the old and new texts; v2 diffs
// carry a git patch, from which before/after are rebuilt against the file as it is now; when
// that fails the patch itself is shown as a read-only document.
import * as vscode from 'vscode';
import type { ToolCallContent } from '../../protocol/domain';
import { findFilePatch, parsePatch, reconstruct } from './patch';

type DiffContent = Extract<ToolCallContent, { type: 'diff' }>;

const SCHEME = 'acp-diff';
const MAX_DOCS = 200;

/** Read-only documents (`acp-diff:` URIs) holding the texts shown in diff editors. */
export class DiffDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly docs = new Map<string, string>();
  private seq = 0;
  private readonly registration: vscode.Disposable;

  constructor() {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
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
      await vscode.commands.executeCommand('vscode.diff', left, right, `${name} (agent edit)`, { preview: true });
      return;
    }
    if (content.patch) {
      const files = parsePatch(content.patch.text);
      const fp = findFilePatch(files, path) ?? files[file];
      const fileUri = toUri(path);
      const current = fileUri ? await readText(fileUri) : undefined;
      const r = fp ? reconstruct(fp, current) : null;
      if (r) {
        const left = this.add(path, 'before', r.before);
        const right = fileUri && current !== undefined && r.after === current ? fileUri : this.add(path, 'after', r.after);
        await vscode.commands.executeCommand('vscode.diff', left, right, `${name} (agent edit)`, { preview: true });
        return;
      }
      const doc = await vscode.workspace.openTextDocument(this.add(`${path}.diff`, 'patch', content.patch.text));
      await vscode.languages.setTextDocumentLanguage(doc, 'diff');
      await vscode.window.showTextDocument(doc, { preview: true });
      return;
    }
    const uri = toUri(path);
    if (uri && (await readText(uri)) !== undefined) await vscode.window.showTextDocument(uri, { preview: true });
    else void vscode.window.showInformationMessage(`The agent sent no diff text for ${name}.`);
  }

  dispose(): void {
    this.registration.dispose();
    this.docs.clear();
  }
}

/** A file URI for an absolute path, or a path relative to the first workspace folder. */
export function toUri(path: string): vscode.Uri | undefined {
  if (/^[a-zA-Z]:[\\/]/.test(path) || path.startsWith('/')) return vscode.Uri.file(path);
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder ? vscode.Uri.joinPath(folder.uri, path) : undefined;
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return open.getText();
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
