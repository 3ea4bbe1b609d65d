// The application services' dialog ports (ConsentUi, SignInUi, ElicitationUi) as stand-ins that
// load the real ones (dialogs.ts, dist/dialogs.js) the first time a dialog is shown, so activation
// does not parse them. Each call is passed on unchanged; one that returns a promise rejects when
// the dialogs cannot be loaded (a damaged install), as the real one would fail.
import { lazyModule } from '../common/lazy';
import type { ElicitationUi } from '../app/elicitationBroker';
import type { SignInUi } from '../app/agentPorts';
import type { ConsentUi } from '../app/permissionBroker';
import type * as Dialogs from './dialogs';
import type { ConsentAttention } from './permissionPrompts';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (src/common/lazy.ts)
const dialogs = lazyModule('dialogs.js', () => require('./dialogs') as typeof Dialogs);

/** vscodeConsentUi(attention) (src/ui/permissionPrompts.ts), made with the first permission request shown. */
export function lazyConsentUi(attention: () => ConsentAttention | undefined): ConsentUi {
  let ui: ConsentUi | undefined;
  const real = (): ConsentUi => (ui ??= dialogs().vscodeConsentUi(attention));
  return {
    ask: async (entry, views) => real().ask(entry, views),
    pickRule: async (offer, agentName) => real().pickRule(offer, agentName),
    ruleCreated: (description, undo) => real().ruleCreated(description, undo),
    alreadyAnswered: (entry) => real().alreadyAnswered(entry),
    warn: (message) => real().warn(message),
  };
}

/** vscodeElicitationUi (src/ui/elicitationPrompts.ts), loaded with the first elicitation outside a conversation, link opened or form that cannot be shown. */
export const lazyElicitationUi: ElicitationUi = {
  askOutsideSession: async (agentName, req) => dialogs().vscodeElicitationUi.askOutsideSession(agentName, req),
  openUrl: async (url) => dialogs().vscodeElicitationUi.openUrl(url),
  warn: (message) => dialogs().vscodeElicitationUi.warn(message),
  problemWords: (problem) => dialogs().vscodeElicitationUi.problemWords(problem),
};

/** vscodeSignInUi(log) (src/ui/signInPrompts.ts), made the first time sign-in asks or tells the user something. */
export function lazySignInUi(log: { show(preserveFocus?: boolean): void }): SignInUi {
  let ui: SignInUi | undefined;
  const real = (): SignInUi => (ui ??= dialogs().vscodeSignInUi(log));
  return {
    askToSignIn: async (name, what) => real().askToSignIn(name, what),
    pickMethod: async (name, methods) => real().pickMethod(name, methods),
    confirmTerminalRun: async (c) => real().confirmTerminalRun(c),
    showError: (message) => real().showError(message),
    showInfo: (message) => real().showInfo(message),
    runInTerminal: (spec) => real().runInTerminal(spec),
  };
}
