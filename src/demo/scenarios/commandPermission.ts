// `/command-permission`: permission to run a command. v2: subject
// `{type:"command", command:"npm test", cwd, toolCallId}` for a pending `execute` tool call; v1: the
// same tool call as `toolCall`. The command is never run; the outcome is echoed as for /permission.

import { type Scenario } from './scenario';
import { ALL_PERMISSION_OPTIONS, report } from './permission';

export const PERMISSION_COMMAND = 'npm test';

export const commandPermissionScenario: Scenario = {
  name: 'command-permission',
  description: 'Ask for permission to run a command (v2 command subject) and echo the answer',
  async run(turn) {
    const toolCallId = turn.id('call_cmd');
    turn.tool({ toolCallId, title: PERMISSION_COMMAND, kind: 'execute', status: 'pending', rawInput: { command: PERMISSION_COMMAND } });
    const outcome = await turn.requestPermission({
      title: `Allow the Demo Agent to run \`${PERMISSION_COMMAND}\`?`,
      description: 'The demo asks, but does not run it.',
      ...(turn.version === 2
        ? { command: { command: PERMISSION_COMMAND, cwd: turn.cwd, toolCallId } }
        : { toolCall: { toolCallId, title: PERMISSION_COMMAND, kind: 'execute', status: 'pending' } }),
      options: [...ALL_PERMISSION_OPTIONS],
    });
    report(turn, outcome, toolCallId);
  },
};
