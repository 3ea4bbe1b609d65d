// Feature: installing agents from the ACP Registry (its own bundle, dist/registry.js, acting only
// through its contract src/registry/api.ts): the commands, and the agent actions it may take —
// SessionActions, and agent status from the SessionStore.
import * as path from 'path';
import { DisposableStore } from '../../common/lifecycle';
import type { RegistryAgentActions } from '../../registry/api';
import { registerRegistryCommands, registryLoader } from '../../ui/registryCommands';
import type { Feature, FeatureHost } from '../host';

export const registryFeature: Feature = {
  name: 'registry',
  activate(host) {
    const owned = new DisposableStore();
    owned.add(
      registerRegistryCommands(
        {
          storageRoot: path.join(host.context.globalStorageUri.fsPath, 'registry'),
          installed: host.installed,
          agents: agentActions(host),
          log: host.logs.main,
          own: (d) => owned.add(d),
        },
        registryLoader(host.context.extensionPath),
      ),
    );
    return owned;
  },
};

function agentActions(host: FeatureHost): RegistryAgentActions {
  return {
    status: (agentId) => host.store.agent(agentId)?.status,
    startAgent: async (agentId) => ({ authMethods: (await host.actions.startAgent(agentId)).connection?.authMethods.map((m) => m.name) ?? [] }),
    stopAgent: (agentId) => host.actions.stopAgent(agentId),
    restartAgent: (agentId) => host.actions.restartAgent(agentId),
  };
}
