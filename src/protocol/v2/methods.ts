// ACP v2 method names: the shared table (common/methods.ts) less what v2 removed, with its own
// names for sign-in. Every v2 difference in method names is declared here.
import type { MethodNames } from '../adapter';
import { versionMethods } from '../common/methods';

export const V2_METHODS = versionMethods({
  without: [
    // session/resume with replayFrom replaces session/load; config options replace modes
    'sessionLoad',
    'sessionSetMode',
    // no client file system or terminal services
    'fsReadTextFile',
    'fsWriteTextFile',
    'terminalCreate',
    'terminalOutput',
    'terminalWaitForExit',
    'terminalKill',
    'terminalRelease',
  ],
  renamed: { authenticate: 'auth/login', logout: 'auth/logout' },
}) satisfies MethodNames;
