// Why a session cannot continue, in words (the SessionStore keeps a typed reason: `SessionEnd`).
// One sentence, shared by the Plans tree, the status bar and the conversation. Free of `vscode`.
import type { L10n } from '../common/l10n';
import type { SessionEnd } from '../state/sessionStore';

/** "The agent could not resume this session after it reconnected; …" */
export function sessionEndedWords(why: SessionEnd, l10n: L10n): string {
  return why === 'cannot_resume'
    ? l10n.t(
        'This session has ended: its agent cannot resume sessions after a restart. The transcript and plans are kept read-only; start a new session to continue.',
      )
    : l10n.t(
        'This session has ended: the agent could not resume it after it reconnected. The transcript and plans are kept read-only; start a new session to continue.',
      );
}
