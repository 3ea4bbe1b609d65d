// Feature: record and replay agent traffic (src/recording): a tap on every connection (the agents
// ask for it when one opens), replays fed through the host's one path into the stores, the marks on
// agent rows, and the recording commands.
import * as vscode from 'vscode';
import { Recordings } from '../../recording/recordings';
import { RECORDING_COMMANDS, recordingCommandsModule, registerLazyCommands } from '../../ui/lazyCommands';
import type { Feature } from '../host';
import { RECORDINGS } from '../ports';

export const recordingsFeature: Feature = {
  name: 'recordings',
  activate(host) {
    const recordings = new Recordings({
      storagePath: host.context.globalStorageUri.fsPath,
      store: host.store,
      plans: host.plans,
      transcript: host.transcript,
      apply: (agentId, e) => host.apply(agentId, e),
      agents: () => host.agents,
      log: host.logs.main,
    });
    host.offer(RECORDINGS, recordings);
    const commands = registerLazyCommands(RECORDING_COMMANDS, () =>
      recordingCommandsModule().recordingCommands(recordings, () => host.agents.all().map((s) => ({ id: s.id, name: s.def.name }))),
    );
    return vscode.Disposable.from(commands, recordings);
  },
};
