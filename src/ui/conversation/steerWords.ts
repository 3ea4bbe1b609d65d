// Words for steering in the conversation: why a message the user asked to steer into the running
// turn waits in the queue instead. A switch over every note code, so a new code needs words here.
import type { L10n } from '../../common/l10n';
import type { QueueNote } from '../../state/queueNote';

/** The sentence shown beside a queued prompt; null when it was queued on purpose (Queue). */
export function queueNoteText(note: QueueNote | undefined, l10n: L10n): string | null {
  if (!note) return null;
  switch (note.code) {
    case 'steerFailed':
      return note.reason === undefined
        ? l10n.t('The agent did not take it into the running turn; it is sent when the turn ends.')
        : l10n.t('The agent did not take it into the running turn ({0}); it is sent when the turn ends.', note.reason);
    case 'steerPromptRequired':
      return l10n.t('The turn had ended before it arrived; it is sent as the next prompt.');
    case 'steerUnknown':
      return l10n.t('The agent answered the steer in a way this client does not know; it is sent when the turn ends.');
    default:
      return note satisfies never;
  }
}
