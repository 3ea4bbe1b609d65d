// `/background` (v2): work that runs on after the turn. A tool call starts a dev server in a
// display terminal and returns (completed); the terminal keeps running and offers cancel. A file
// watcher tool call stays `in_progress` and offers cancel. The turn ends idle with
// `background: [{type:"terminal"}, {type:"tool_call"}]`. `terminal/cancel` ends the terminal
// (`exitStatus` signal SIGTERM, controls cleared); `tool_call/cancel` marks the watcher cancelled;
// each is followed by a state snapshot without it.

import type { Turn } from '../turn';
import { onCancel, removeBackground, setBackground } from './backgroundWork';
import { type Scenario } from './scenario';

export const DEV_SERVER_COMMAND = 'npm run dev';
export const WATCHER_TITLE = 'Watch src/ for changes';

function snapshot(turn: Turn, match: (i: Record<string, unknown>) => boolean): void {
  const sessionId = turn.session.sessionId;
  const background = removeBackground(sessionId, match);
  turn.sendRaw(sessionId, { sessionUpdate: 'state_update', state: turn.session.turn ? 'running' : 'idle', background });
}

export const backgroundScenario: Scenario = {
  name: 'background',
  description: 'Start a dev server terminal and a file watcher that run on after the turn, both cancellable (v2)',
  async run(turn) {
    if (turn.version === 1) {
      turn.say('background: background work needs ACP v2.');
      return;
    }
    const sessionId = turn.session.sessionId;
    const terminalId = turn.id('term');
    const serverCall = turn.id('call_server');
    const watchCall = turn.id('call_watch');
    turn.tool({
      toolCallId: serverCall,
      title: DEV_SERVER_COMMAND,
      kind: 'execute',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId }],
      rawInput: { command: DEV_SERVER_COMMAND },
    });
    turn.emit({
      kind: 'terminal',
      terminalId,
      command: DEV_SERVER_COMMAND,
      cwd: turn.cwd,
      output: Buffer.from(`$ ${DEV_SERVER_COMMAND}\r\nListening on http://127.0.0.1:5173\r\n`).toString('base64'),
    });
    turn.sendRaw(sessionId, { sessionUpdate: 'terminal_update', terminalId, capabilities: { cancel: {} } });
    // The process runs on: the tool call returns control to the model (listed as its terminal only).
    turn.tool({ toolCallId: serverCall, status: 'completed' });
    await turn.pace();
    turn.tool({ toolCallId: watchCall, title: WATCHER_TITLE, kind: 'other', status: 'in_progress', rawInput: { path: 'src/' } });
    turn.sendRaw(sessionId, { sessionUpdate: 'tool_call_update', toolCallId: watchCall, capabilities: { cancel: {} } });
    onCancel('terminal', sessionId, terminalId, () => {
      turn.sendRaw(sessionId, { sessionUpdate: 'terminal_output_chunk', terminalId, data: Buffer.from('Stopped.\r\n').toString('base64') });
      turn.sendRaw(sessionId, { sessionUpdate: 'terminal_update', terminalId, exitStatus: { signal: 'SIGTERM' }, capabilities: null });
      snapshot(turn, (i) => i.terminalId === terminalId);
    });
    onCancel('tool_call', sessionId, watchCall, () => {
      turn.sendRaw(sessionId, { sessionUpdate: 'tool_call_update', toolCallId: watchCall, status: 'cancelled', capabilities: null });
      snapshot(turn, (i) => i.toolCallId === watchCall);
    });
    setBackground(sessionId, [
      { type: 'terminal', terminalId },
      { type: 'tool_call', toolCallId: watchCall },
    ]);
    turn.say(`Started \`${DEV_SERVER_COMMAND}\` and a file watcher; both run on after this turn. Cancel them from the Plans view.`);
  },
};
