import * as assert from 'assert';
import * as vscode from 'vscode';
import type { AcpPlansApi } from '../../../src/api/types';
import { TEST_HOOKS_KEY, type TestHooks } from '../../../src/testHooks';

export const EXT_ID = 'acp-plans.acp-plans';

/** What this extension's tests reach besides the public API (never handed to other extensions). */
export interface Internals {
  store: TestHooks['ext']['store'];
  plans: TestHooks['ext']['plans'];
  transcript: TestHooks['ext']['transcript'];
  agents: TestHooks['ext']['agents'];
  actions: TestHooks['ext']['actions'];
  broker: TestHooks['ext']['broker'];
  conversation: TestHooks['ext']['conversation'];
  plansUi: TestHooks['ext']['plansUi'];
  intent: TestHooks['ext']['intent'];
  logs: TestHooks['ext']['logs'];
  budget: TestHooks['ext']['budget'];
  history: TestHooks['ext']['history'];
  remote: TestHooks['ext']['remote'];
  activationMs: number;
}

export type TestApi = AcpPlansApi & { internals: Internals };

/** Activates the extension under test and returns its public API plus the test-only internals. */
export async function api(): Promise<TestApi> {
  const ext = vscode.extensions.getExtension<AcpPlansApi>(EXT_ID);
  assert.ok(ext, `extension ${EXT_ID} is not loaded`);
  const pub = ext.isActive ? ext.exports : await ext.activate();
  const hooks = (globalThis as Record<symbol, unknown>)[TEST_HOOKS_KEY] as TestHooks | undefined;
  assert.ok(hooks, 'the test hooks are missing (extension mode Test and ACP_PLANS_TEST_HOOKS=1)');
  const e = hooks.ext;
  const internals: Internals = {
    store: e.store,
    plans: e.plans,
    transcript: e.transcript,
    agents: e.agents,
    actions: e.actions,
    broker: e.broker,
    conversation: e.conversation,
    plansUi: e.plansUi,
    intent: e.intent,
    logs: e.logs,
    budget: e.budget,
    history: e.history,
    remote: e.remote,
    activationMs: hooks.activationMs,
  };
  return { ...pub, internals };
}

/** Resolves when `check()` holds, re-checking on each `event` firing (no polling), or rejects after `ms`. */
export function waitFor<T>(
  event: vscode.Event<T> | ((l: (e: T) => void) => vscode.Disposable),
  check: () => boolean,
  ms = 15000,
  what = 'condition',
): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out waiting for ${what}`));
    }, ms);
    const sub = event(() => {
      if (check()) {
        clearTimeout(timer);
        sub.dispose();
        resolve();
      }
    });
  });
}
