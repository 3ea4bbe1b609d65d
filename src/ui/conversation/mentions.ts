// Workspace files for `@` mentions: one file listing, reused for a few seconds while typing.
import * as vscode from 'vscode';
import type { MentionItem } from './webviewMessages';
import { rankPaths } from './rank';

const CACHE_MS = 10_000;
const MAX_FILES = 20_000;

export class WorkspaceFiles {
  private cache: { at: number; files: Promise<Map<string, vscode.Uri>> } | undefined;

  async query(query: string, limit = 20): Promise<MentionItem[]> {
    const files = await this.files();
    return rankPaths([...files.keys()], query, limit).map((rel) => ({
      uri: files.get(rel)!.toString(),
      label: rel.slice(rel.lastIndexOf('/') + 1),
      detail: rel,
    }));
  }

  private files(): Promise<Map<string, vscode.Uri>> {
    const now = Date.now();
    if (!this.cache || now - this.cache.at > CACHE_MS) {
      const files = Promise.resolve(vscode.workspace.findFiles('**/*', '**/{node_modules,.git}/**', MAX_FILES)).then((uris) => {
        const map = new Map<string, vscode.Uri>();
        for (const u of uris) map.set(vscode.workspace.asRelativePath(u, true), u);
        return map;
      });
      this.cache = { at: now, files };
    }
    return this.cache.files;
  }
}
