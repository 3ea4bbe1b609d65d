// What sign-in tells the user when an agent answers auth_required: one whole sentence for each
// thing the agent refused (no verb spliced into a sentence, so a translation can word each one).
// No `vscode`: the words come from the caller's L10n (vscode.l10n in the product).
import { english, type L10n } from '../common/l10n';

/** What the agent refused before sign-in (also the words of the log line, which stays English). */
export type SignInAction = 'open a session' | 'resume the session' | 'take prompts';

/** `Agent A asks you to sign in before it can open a session.` */
export function signInQuestion(name: string, action: SignInAction, l10n: L10n = english): string {
  switch (action) {
    case 'open a session':
      return l10n.t('{0} asks you to sign in before it can open a session.', name);
    case 'resume the session':
      return l10n.t('{0} asks you to sign in before it can resume the session.', name);
    case 'take prompts':
      return l10n.t('{0} asks you to sign in before it can take prompts.', name);
  }
}

/** The error when the user declined or sign-in failed: the question, then what to do next. */
export function signInDeclined(name: string, action: SignInAction, l10n: L10n = english): string {
  return l10n.t('{0} Run "ACP: Sign In", then try again.', signInQuestion(name, action, l10n));
}

/** The error when the agent still refuses after a sign-in. */
export function stillAsksForSignIn(name: string, l10n: L10n = english): string {
  return l10n.t("{0} still asks for sign-in after signing in. Check the sign-in in the agent's own terminal or tools, then try again.", name);
}
