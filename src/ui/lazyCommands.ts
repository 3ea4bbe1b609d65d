// Commands whose code loads when one of them first runs. They are registered at activation (so the
// palette and menus work at once); the implementation is a file of its own in the extension bundle
// (esbuild.mjs maps the `require`s below), so activation does not parse it.
import * as vscode from 'vscode';
import { lazyModule } from '../common/lazy';
import type * as Recording from '../recording/recordingCommands';
import type * as History from './historyCommands';

type Handlers = Record<string, (...args: unknown[]) => unknown>;

/** Registers `ids`; the first run of any of them calls `load` once for all their handlers. */
export function registerLazyCommands(ids: readonly string[], load: () => Handlers): vscode.Disposable {
  let handlers: Handlers | undefined;
  return vscode.Disposable.from(
    ...ids.map((id) =>
      vscode.commands.registerCommand(id, (...args: unknown[]) => {
        handlers ??= load();
        const run = handlers[id];
        if (!run) throw new Error(`ACP Plans: the command ${id} has no handler. Reinstall the extension.`);
        return run(...args);
      }),
    ),
  );
}

/** Delete Session History…, Clear All History…, Export Session…, Import Session… (dist/history-commands.js). */
export const HISTORY_COMMANDS = ['acp.deleteSessionHistory', 'acp.clearHistory', 'acp.exportSession', 'acp.importSession'] as const;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
export const historyCommandsModule = lazyModule('history-commands.js', () => require('./historyCommands') as typeof History);

/** Record Agent Traffic, Open Recording… and the replay controls (dist/recording-commands.js). */
export const RECORDING_COMMANDS = [
  'acp.recordAgentTraffic',
  'acp.openRecording',
  'acp.pauseReplay',
  'acp.resumeReplay',
  'acp.stepReplay',
  'acp.closeRecording',
] as const;

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
export const recordingCommandsModule = lazyModule('recording-commands.js', () => require('../recording/recordingCommands') as typeof Recording);
