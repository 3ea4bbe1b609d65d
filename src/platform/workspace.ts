// What the VS Code window says about the workspace: its local folders and whether it is trusted.
// Every layer that needs these asks here (agents, application services, views), so the rule
// "no agent program runs in an untrusted workspace" has one error and one check.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { hasBrand } from '../common/brand';
import { within } from '../common/paths';

const UNTRUSTED: unique symbol = Symbol.for('acp-plans.UntrustedWorkspaceError');

/** Branded (src/common/brand.ts): the commands, loaded on first use, recognise the one thrown here. */
export class UntrustedWorkspaceError extends Error {
  readonly [UNTRUSTED] = true;
  constructor() {
    super(
      'ACP Plans does not start agents in an untrusted workspace: an agent is a program that runs code on this machine. Trust this workspace to start agents.',
    );
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    return hasBrand(value, UNTRUSTED);
  }
}

/** Throws UntrustedWorkspaceError in an untrusted workspace (no agent program runs there). */
export function assertTrusted(): void {
  if (!vscode.workspace.isTrusted) throw new UntrustedWorkspaceError();
}

/** The local workspace folders: the default roots for agents' files. */
export function workspaceRoots(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
}

/** Inside a workspace folder as written (no links followed): for UI actions that only need a hint. */
export function insideWorkspace(fsPath: string): boolean {
  const target = path.resolve(fsPath);
  return workspaceRoots().some((root) => within(root, target));
}
