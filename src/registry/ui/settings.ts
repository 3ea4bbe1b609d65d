// The registry settings, read live (machine scope: a workspace cannot point them elsewhere).
import * as vscode from 'vscode';

/** The official ACP Registry index (also the default in package.json). */
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

export function registrySettings(): { url: string; maxDownloadBytes: number } {
  const c = vscode.workspace.getConfiguration('acp');
  const url = c.get<string>('registry.url', DEFAULT_REGISTRY_URL).trim() || DEFAULT_REGISTRY_URL;
  const mib = c.get<number>('registry.maxDownloadMiB', 512);
  return { url, maxDownloadBytes: Math.max(1, Number.isFinite(mib) ? mib : 512) * 1024 * 1024 };
}
