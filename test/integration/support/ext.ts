import * as assert from 'assert';
import * as vscode from 'vscode';
import type { AcpPlansApi } from '../../../src/api';

export const EXT_ID = 'acp-plans.acp-plans';

/** Activates the extension under test and returns its public API. */
export async function api(): Promise<AcpPlansApi> {
  const ext = vscode.extensions.getExtension<AcpPlansApi>(EXT_ID);
  assert.ok(ext, `extension ${EXT_ID} is not loaded`);
  return ext.isActive ? ext.exports : ext.activate();
}

/** Resolves when `check()` holds, re-checking on each `event` firing (no polling), or rejects after `ms`. */
export function waitFor<T>(event: vscode.Event<T> | ((l: (e: T) => void) => vscode.Disposable), check: () => boolean, ms = 15000, what = 'condition'): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { sub.dispose(); reject(new Error(`timed out waiting for ${what}`)); }, ms);
    const sub = event(() => {
      if (check()) { clearTimeout(timer); sub.dispose(); resolve(); }
    });
  });
}
