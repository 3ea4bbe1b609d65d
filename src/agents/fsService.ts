// v1 client file services. Reads return the editor's content (unsaved changes included); writes go
// through a WorkspaceEdit so they can be undone. Which paths are allowed, and which writes need the
// user's consent first, is decided by FileAccess (see its header for the injected `roots` and
// `confirm`); this file only does the I/O, on the real path FileAccess returns.
import * as fs from 'fs';
import * as vscode from 'vscode';
import type { ClientServices } from '../protocol/api';
import { FileAccess, type FileAccessOptions } from './fileAccess';
import { AccessDeniedError, printable } from './pathPolicy';

export { AccessDeniedError } from './pathPolicy';

/** Largest file an agent may read through the client (bytes). */
export const MAX_READ_BYTES = 16 * 1024 * 1024;
/** Largest content an agent may write through the client (UTF-16 code units, ≈ bytes for text). */
export const MAX_WRITE_CHARS = 16 * 1024 * 1024;

/** A write the client made for an agent: the path as the agent named it, the text before (null: a new file) and after. */
export interface WrittenFile {
  agentId: string;
  sessionId: string;
  path: string;
  before: string | null;
  after: string;
}

/** The fs services of one connection. */
export type FileHandlers = Required<Pick<ClientServices, 'readTextFile' | 'writeTextFile'>>;

export class FileService {
  private readonly access: FileAccess;

  /** `onWrite`: told of each write once it is saved (the work index keeps it for review and revert). */
  constructor(
    options: FileAccessOptions,
    private readonly onWrite?: (w: WrittenFile) => void,
  ) {
    this.access = new FileAccess(options);
  }

  /** The fs services of one connection of agent `agentId`. */
  forConnection(agentId: string): FileHandlers {
    return {
      readTextFile: (p) => this.read(agentId, p),
      writeTextFile: (p) => this.write(agentId, p),
    };
  }

  private async read(agentId: string, p: { sessionId: string; path: string; line?: number | null; limit?: number | null }): Promise<{ content: string }> {
    const r = await this.access.forRead(agentId, p.sessionId, p.path);
    // An editor's unsaved changes are what the agent sees; a saved editor's copy may not have caught up
    // yet with a change on disk (git, another program), so the file itself is read then.
    const open = vscode.workspace.textDocuments.find((d) => d.isDirty && d.uri.scheme === 'file' && (d.uri.fsPath === r.real || d.uri.fsPath === r.lexical));
    const text = open ? open.getText() : await this.readDisk(r.real, p.path);
    if (p.line == null && p.limit == null) return { content: text };
    const lines = text.split('\n');
    const start = Math.max(0, (p.line ?? 1) - 1);
    const end = p.limit == null ? lines.length : start + Math.max(0, p.limit);
    return { content: lines.slice(start, end).join('\n') };
  }

  /** The file's text as the editor would decode it (its encoding setting, a byte order mark). */
  private async readDisk(real: string, shown: string): Promise<string> {
    const st = await fs.promises.stat(real);
    if (!st.isFile()) throw new AccessDeniedError(`Refused to read "${printable(shown)}": it is not a regular file.`);
    if (st.size > MAX_READ_BYTES) throw new AccessDeniedError(`Refused to read "${printable(shown)}": it is larger than ${MAX_READ_BYTES / 1024 / 1024} MiB.`);
    const uri = vscode.Uri.file(real);
    const bytes = await vscode.workspace.fs.readFile(uri);
    try {
      return await vscode.workspace.decode(bytes, { uri });
    } catch {
      throw new AccessDeniedError(`Refused to read "${printable(shown)}": it is not a text file.`);
    }
  }

  private async write(agentId: string, p: { sessionId: string; path: string; content: string }): Promise<void> {
    if (p.content.length > MAX_WRITE_CHARS)
      throw new AccessDeniedError(`Refused to write "${printable(p.path)}": the content is larger than ${MAX_WRITE_CHARS / 1024 / 1024} MiB.`);
    const r = await this.access.forWrite(agentId, p.sessionId, p.path);
    const uri = vscode.Uri.file(r.real);
    const edit = new vscode.WorkspaceEdit();
    let before: string | null = null;
    if (r.exists) {
      const doc = await vscode.workspace.openTextDocument(uri);
      const disk = doc.isDirty ? undefined : await this.readDisk(r.real, p.path).catch(() => undefined);
      before = disk ?? doc.getText(); // what the write replaces
      if (disk !== undefined && lf(disk) !== lf(doc.getText())) {
        // The editor's saved copy is behind the file (changed on disk since): the file itself is
        // written, in the document's encoding, and the editor reloads it.
        await vscode.workspace.fs.writeFile(uri, await vscode.workspace.encode(p.content, { encoding: doc.encoding }));
        this.onWrite?.({ agentId, sessionId: p.sessionId, path: p.path, before, after: p.content });
        return;
      }
      edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), p.content);
    } else {
      edit.createFile(uri, { ignoreIfExists: true });
      edit.insert(uri, new vscode.Position(0, 0), p.content);
    }
    if (!(await vscode.workspace.applyEdit(edit))) throw new Error(`Could not write "${printable(p.path)}": VS Code rejected the edit.`);
    const doc = await vscode.workspace.openTextDocument(uri);
    if (!(await doc.save()))
      throw new Error(`Could not save "${printable(p.path)}": VS Code did not save it (the editor says why). The change is in the editor, unsaved.`);
    this.onWrite?.({ agentId, sessionId: p.sessionId, path: p.path, before, after: p.content });
  }
}

/** Line ends as `\n` (an editor's copy of a file with mixed line ends has them all alike). */
function lf(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
