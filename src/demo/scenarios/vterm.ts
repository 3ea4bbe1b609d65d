// `/vterm` (v2): an agent-owned display terminal. Sends a tool call showing the terminal, a
// `terminal_update` with the command, cwd and a first output snapshot, then `terminal_output_chunk`s
// whose boundaries split multi-byte UTF-8 characters ("é", "✓") and carry ANSI colours, then a
// `terminal_update` with `exitStatus: {exitCode: 0}`.

import { type Scenario } from './scenario';

export const VTERM_COMMAND = 'npm run build';
export const VTERM_SNAPSHOT = Buffer.from(`$ ${VTERM_COMMAND}\r\n`, 'utf8');

const E_ACUTE = Buffer.from('é', 'utf8'); // C3 A9
const CHECK = Buffer.from('✓', 'utf8'); // E2 9C 93

/** The output chunks, as bytes. Chunk 1 ends inside "é", chunk 2 ends inside "✓". */
export const VTERM_CHUNKS: readonly Buffer[] = [
  Buffer.concat([Buffer.from('\x1b[1mBuilding\x1b[0m caf'), E_ACUTE.subarray(0, 1)]),
  Buffer.concat([E_ACUTE.subarray(1), Buffer.from(' bundle…\r\n\x1b[32m'), CHECK.subarray(0, 2)]),
  Buffer.concat([CHECK.subarray(2), Buffer.from('\x1b[0m 3 files compiled\r\n')]),
];

/** Everything the terminal shows at the end: the snapshot followed by the chunks. */
export const VTERM_TEXT = Buffer.concat([VTERM_SNAPSHOT, ...VTERM_CHUNKS]).toString('utf8');

export const vtermScenario: Scenario = {
  name: 'vterm',
  description: 'Show an agent-owned display terminal with coloured output split inside UTF-8 characters (v2)',
  async run(turn) {
    if (turn.version === 1) {
      turn.say('vterm: display terminals need ACP v2. With v1, try `/terminal <command>`.');
      return;
    }
    const terminalId = turn.id('term');
    const toolCallId = turn.id('call_vterm');
    turn.tool({
      toolCallId,
      title: VTERM_COMMAND,
      kind: 'execute',
      status: 'in_progress',
      content: [{ type: 'terminal', terminalId }],
      rawInput: { command: VTERM_COMMAND },
    });
    turn.emit({ kind: 'terminal', terminalId, command: VTERM_COMMAND, cwd: turn.cwd, output: VTERM_SNAPSHOT.toString('base64') });
    for (const chunk of VTERM_CHUNKS) {
      await turn.pace(0.5);
      turn.emit({ kind: 'terminalChunk', terminalId, data: chunk.toString('base64') });
    }
    await turn.pace(0.5);
    turn.emit({ kind: 'terminal', terminalId, exitStatus: { exitCode: 0 } });
    turn.tool({ toolCallId, status: 'completed' });
    turn.say(`vterm: \`${VTERM_COMMAND}\` finished with exit code 0.`);
  },
};
