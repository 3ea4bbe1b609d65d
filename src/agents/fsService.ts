// v1 client file services. Reads return the editor's content (unsaved changes included); writes go
// through a WorkspaceEdit so they can be undone. Both are limited to the workspace folders.
import * as path from 'path';
import * as vscode from 'vscode';

export class AccessDeniedError extends Error {}

export function insideWorkspace(fsPath: string): boolean {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const target = path.resolve(fsPath);
  return folders.some((f) => {
    if (f.uri.scheme !== 'file') return false;
    const rel = path.relative(f.uri.fsPath, target);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
}

function check(p: string, what: string): vscode.Uri {
  if (!path.isAbsolute(p)) throw new AccessDeniedError(`Refused to ${what} "${p}": the path must be absolute.`);
  if (!insideWorkspace(p)) throw new AccessDeniedError(`Refused to ${what} "${p}": it is outside the workspace folders.`);
  return vscode.Uri.file(p);
}

export async function readTextFile(p: { path: string; line?: number | null; limit?: number | null }): Promise<{ content: string }> {
  const uri = check(p.path, 'read');
  const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === uri.fsPath);
  const text = open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  if (p.line == null && p.limit == null) return { content: text };
  const lines = text.split('\n');
  const start = Math.max(0, (p.line ?? 1) - 1);
  const end = p.limit == null ? lines.length : start + Math.max(0, p.limit);
  return { content: lines.slice(start, end).join('\n') };
}

export async function writeTextFile(p: { path: string; content: string }): Promise<void> {
  const uri = check(p.path, 'write');
  const edit = new vscode.WorkspaceEdit();
  let exists = true;
  try { await vscode.workspace.fs.stat(uri); } catch { exists = false; }
  if (exists) {
    const doc = await vscode.workspace.openTextDocument(uri);
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), p.content);
  } else {
    edit.createFile(uri, { ignoreIfExists: true });
    edit.insert(uri, new vscode.Position(0, 0), p.content);
  }
  if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not write "${p.path}": VS Code rejected the edit.`);
  const doc = await vscode.workspace.openTextDocument(uri);
  await doc.save();
}
