// Activation: builds the composition root (src/app/acpExtension.ts), owned by the extension's
// subscriptions, and returns the public API (src/api/types.ts). Only when VS Code runs this
// extension's own tests (extension mode Test, and the harness's ACP_PLANS_TEST_HOOKS=1) are the
// internals handed out, through a global the tests read; a normal install never creates it.
import * as vscode from 'vscode';
import { AcpExtension } from './root/acpExtension';
import { createApi, type AcpPlansApi } from './api/createApi';
import { TEST_HOOKS_KEY, type TestHooks } from './testHooks';

export function activate(context: vscode.ExtensionContext): AcpPlansApi {
  const t0 = performance.now();
  const ext = new AcpExtension(context);
  context.subscriptions.push(ext);
  const api = createApi(ext.store, ext.plans);
  const activationMs = performance.now() - t0;
  ext.logs.main.info(`activated in ${activationMs.toFixed(1)} ms`);
  if (context.extensionMode === vscode.ExtensionMode.Test && process.env.ACP_PLANS_TEST_HOOKS === '1') {
    const hooks: TestHooks = { ext, activationMs };
    (globalThis as Record<symbol, unknown>)[TEST_HOOKS_KEY] = hooks;
    context.subscriptions.push({
      dispose: () => {
        delete (globalThis as Record<symbol, unknown>)[TEST_HOOKS_KEY];
      },
    });
  }
  return api;
}

export function deactivate(): void {
  /* everything is disposed through context.subscriptions */
}
