// The registry commands (Add Agent from Registry…, Update, Uninstall). Their code and its archive
// libraries live in dist/registry.js (src/registry/index.ts), loaded on first use, so activation
// and the extension bundle do not pay for them; the module gets what it needs as one argument.
import * as path from 'path';
import * as vscode from 'vscode';
import type { RegistryHost, RegistryModule } from '../registry/api';

export type RegistryLoader = () => RegistryModule;

/** Loads dist/registry.js once (a separate bundle beside dist/extension.js). */
export function registryLoader(extensionPath: string): RegistryLoader {
  let mod: RegistryModule | undefined;
  return () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a lazily loaded bundle, not a module import
    mod ??= (require(path.join(extensionPath, 'dist', 'registry.js')) as { registryModule: RegistryModule }).registryModule;
    return mod;
  };
}

export function registerRegistryCommands(host: RegistryHost, load: RegistryLoader): vscode.Disposable {
  const names = ['addAgentFromRegistry', 'updateAgent', 'uninstallAgent'] as const;
  return vscode.Disposable.from(
    ...names.map((name) =>
      vscode.commands.registerCommand(`acp.${name}`, (arg?: unknown) => {
        let mod: RegistryModule;
        try {
          mod = load();
        } catch (err) {
          host.log.error(`[registry] ${String(err)}`);
          void vscode.window.showErrorMessage(vscode.l10n.t('ACP Plans could not load dist/registry.js; reinstall the extension.'));
          return undefined;
        }
        return mod[name](host, arg);
      }),
    ),
  );
}
