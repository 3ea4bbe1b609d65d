// ACP v1 method names: the shared table (common/methods.ts) less what only v2 has. Every v1
// difference in method names is declared here.
import type { MethodNames } from '../adapter';
import { versionMethods } from '../common/methods';

export const V1_METHODS = versionMethods({
  // v2's cancels of one background item, and v2's (unstable) session management
  without: ['terminalCancel', 'toolCallCancel', 'sessionFork', 'sessionArchive', 'sessionUnarchive', 'sessionSetTitle', 'sessionStatus'],
  renamed: {},
}) satisfies MethodNames;
