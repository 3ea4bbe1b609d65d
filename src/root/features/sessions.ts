// Feature: the agent and session commands (start, stop, new session, send prompt, cancel, sign in,
// background rows…: src/ui/sessionCommands.ts and its group, loaded when one first runs), acting
// through SessionActions and the PermissionBroker.
import { registerSessionCommands } from '../../ui/lazyCommands';
import type { Feature } from '../host';

export const sessionsFeature: Feature = {
  name: 'agent and session commands',
  activate: (host) => registerSessionCommands({ actions: host.actions, store: host.store, broker: host.broker, logs: host.logs, agents: host.agents }),
};
