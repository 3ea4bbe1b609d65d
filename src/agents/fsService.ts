// v1 client file services. Reads return the editor's content (unsaved changes included); writes go
// through a WorkspaceEdit so they can be undone. Both are limited to the workspace folders.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';

export class AccessDeniedError extends Error {}

/** Largest file an agent may read through the client (bytes). */
export const MAX_READ_BYTES = 16 * 1024 * 1024;

function within(folderPath: string, target: string): boolean {
  const rel = path.relative(folderPath, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export function insideWorkspace(fsPath: string): boolean {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const target = path.resolve(fsPath);
  return folders.some((f) => f.uri.scheme === 'file' && within(f.uri.fsPath, target));
}

/** The real path of `p`, or of its nearest existing parent joined with the rest (for new files). */
async function realpathNearest(p: string): Promise<string> {
  let dir = path.resolve(p);
  const rest: string[] = [];
  for (;;) {
    try { return path.join(await fs.promises.realpath(dir), ...rest); } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return path.resolve(p);
      rest.unshift(path.basename(dir));
      dir = parent;
    }
  }
}

/** Inside the workspace both as written and after following symbolic links. */
async function check(p: string, what: string): Promise<vscode.Uri> {
  if (!path.isAbsolute(p)) throw new AccessDeniedError(`Refused to ${what} "${p}": the path must be absolute.`);
  if (!insideWorkspace(p)) throw new AccessDeniedError(`Refused to ${what} "${p}": it is outside the workspace folders.`);
  const real = await realpathNearest(p);
  const folders = await Promise.all((vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => realpathNearest(f.uri.fsPath)));
  if (!folders.some((f) => within(f, real))) throw new AccessDeniedError(`Refused to ${what} "${p}": through a symbolic link it leads outside the workspace folders.`);
  return vscode.Uri.file(p);
}

export async function readTextFile(p: { path: string; line?: number | null; limit?: number | null }): Promise<{ content: string }> {
  const uri = await check(p.path, 'read');
  const open = vscode.workspace.textDocuments.find((d) => d.uri.fsPath === uri.fsPath);
  let text: string;
  if (open) text = open.getText();
  else {
    const st = await fs.promises.stat(uri.fsPath);
    if (!st.isFile()) throw new AccessDeniedError(`Refused to read "${p.path}": it is not a regular file.`);
    if (st.size > MAX_READ_BYTES) throw new AccessDeniedError(`Refused to read "${p.path}": it is larger than ${MAX_READ_BYTES / 1024 / 1024} MiB.`);
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  }
  if (p.line == null && p.limit == null) return { content: text };
  const lines = text.split('\n');
  const start = Math.max(0, (p.line ?? 1) - 1);
  const end = p.limit == null ? lines.length : start + Math.max(0, p.limit);
  return { content: lines.slice(start, end).join('\n') };
}

export async function writeTextFile(p: { path: string; content: string }): Promise<void> {
  const uri = await check(p.path, 'write');
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
