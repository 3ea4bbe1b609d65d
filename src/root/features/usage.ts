// Feature: usage (ACP: Show Usage). A ledger (src/app/usage) fed by the session events — live ones
// as they arrive, stored ones as the history replays them at their recorded times — and the panel
// that shows it per session, agent or day, with the agents' rate limits (src/ui/usage). A deleted
// session's usage goes with it. The live meter goes on the Plans tree's session rows and in the
// status bar's tooltip, as each report arrives.
import * as vscode from 'vscode';
import type { UsageNames } from '../../app/usage/usageCsv';
import { UsageLedger, type UsageGrouping } from '../../app/usage/usageLedger';
import { DisposableStore, toDisposable } from '../../common/lifecycle';
import { UsageMeters } from '../../ui/usage/usageMeters';
import { UsagePanel } from '../../ui/usage/usagePanel';
import type { Feature, FeatureHost } from '../host';
import { PLANS_VIEW } from '../ports';

/** What `acp.showUsage` accepts (tests and menus skip the page's controls). */
interface ShowUsageArgs {
  readonly by?: UsageGrouping;
  /** Writes the CSV to this file path instead of asking. */
  readonly exportTo?: string;
}

export const usageFeature: Feature = {
  name: 'usage',
  activate(host) {
    const owned = new DisposableStore();
    const ledger = new UsageLedger();
    owned.add(toDisposable(() => ledger.dispose()));
    owned.add(host.events.onDidApply(({ agentId, event, t }) => ledger.apply(agentId, event, t)));
    owned.add(host.events.onDidReplay(({ agentId, event, t }) => ledger.apply(agentId, event, t)));
    owned.add(
      host.store.onDidChange((c) => {
        if (c.scope === 'session' && c.kind === 'removed') ledger.forget(c.agentId, c.sessionId);
      }),
    );
    const plans = host.port(PLANS_VIEW);
    if (plans) {
      const meters = new UsageMeters(ledger);
      owned.add(plans.tree.meters.show(meters));
      owned.add(plans.statusBar.showUsage(meters));
    }
    const panel = owned.add(new UsagePanel(host.context.extensionUri, ledger, names(host)));
    owned.add(
      vscode.commands.registerCommand('acp.showUsage', async (arg?: ShowUsageArgs) => {
        const a = arg && typeof arg === 'object' ? arg : {};
        const shown = panel.show(a.by);
        if (typeof a.exportTo === 'string') await panel.exportCsv(vscode.Uri.file(a.exportTo));
        return shown;
      }),
    );
    return owned;
  },
};

function names(host: FeatureHost): UsageNames {
  return {
    agent: (agentId) => host.agents.get(agentId)?.def.name ?? host.store.agent(agentId)?.name ?? agentId,
    session: (agentId, sessionId) => host.store.session(agentId, sessionId)?.title || sessionId.slice(0, 8),
  };
}
