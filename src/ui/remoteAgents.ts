// The VS Code side of remote agents (entries of acp.agents with a `url`): the secrets their headers
// name (`${secret:NAME}`), kept in VS Code's SecretStorage and set with "ACP: Set Agent Secret…"
// (never in settings, never logged), and the confirmation before the first connection to a host,
// which shows the URL and is remembered per host, and the words of why a connection did not open
// or ended (remoteWords.ts). Given to the AgentManager as its RemoteAccess
// (src/agents/remoteAgent.ts) by the composition root. The dialogs and the words are loaded on
// first use (agentSecrets.ts, remoteWords.ts).
import * as vscode from 'vscode';
import { lazyModule } from '../common/lazy';
import type * as Dialogs from './agentSecrets';
import type * as Words from './remoteWords';
import type { RemoteReason } from '../app/remoteReasons';
import { SECRET_PREFIX, type HostConfirmation } from './agentSecretKeys';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously
const dialogs = lazyModule('remote-ui.js', () => require('./agentSecrets') as typeof Dialogs);
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously
const words = lazyModule('remote-words.js', () => require('./remoteWords') as typeof Words);

const HOSTS_KEY = 'acp.remote.allowedHosts';

export interface RemoteAgentsUi {
  secret(name: string): Promise<string | undefined>;
  confirmHost(c: HostConfirmation): Promise<boolean>;
  describe(reason: RemoteReason): Words.RemoteWords;
  /**
   * Resolves a remote agent's host name (the system's resolver when unset). Only this extension's
   * integration tests set it (through src/testHooks.ts), so no test sends a name lookup off the machine.
   */
  resolve?: (hostname: string) => Promise<readonly { readonly address: string; readonly family: number }[]>;
}

export function remoteAgentsUi(context: vscode.ExtensionContext): RemoteAgentsUi & vscode.Disposable {
  const pendingHosts = new Map<string, Promise<boolean>>();
  const command = vscode.commands.registerCommand('acp.setAgentSecret', (name?: unknown, value?: unknown) => dialogs().setSecret(context, name, value));
  return {
    secret: (name) => Promise.resolve(context.secrets.get(SECRET_PREFIX + name)),
    describe: (reason) => words().remoteWords(reason, vscode.l10n),
    confirmHost(c) {
      if ((context.globalState.get<string[]>(HOSTS_KEY) ?? []).includes(c.host)) return Promise.resolve(true);
      // Two starts at once (a restart while the pick is open) share one question.
      let asked = pendingHosts.get(c.host);
      if (!asked) {
        asked = dialogs()
          .askHost(c)
          .then(async (ok) => {
            if (ok) await context.globalState.update(HOSTS_KEY, [...(context.globalState.get<string[]>(HOSTS_KEY) ?? []), c.host]);
            return ok;
          });
        const forget = (): void => void pendingHosts.delete(c.host);
        asked.then(forget, forget);
        pendingHosts.set(c.host, asked);
      }
      return asked;
    },
    dispose: () => command.dispose(),
  };
}
