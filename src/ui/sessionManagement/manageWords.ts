// Words for why a fork, an archive, a rename did not happen (ManageReason, src/app/sessionManagement):
// one switch over every code, each sentence saying what to do.
import type { L10n } from '../../common/l10n';
import type { ManageCapability, ManageReason } from '../../app/sessionManagement/sessionManagement';

function action(what: ManageCapability, l10n: L10n): string {
  switch (what) {
    case 'fork':
      return l10n.t('fork sessions');
    case 'archive':
      return l10n.t('archive sessions');
    case 'title':
      return l10n.t('rename sessions');
    case 'status':
      return l10n.t('report session status');
    default:
      return what satisfies never;
  }
}

export function manageWords(r: ManageReason, l10n: L10n): string {
  switch (r.code) {
    case 'not_running':
      return l10n.t('{0} is not running. Start it, then try again.', r.agent);
    case 'not_offered':
      return l10n.t('{0} cannot {1}.', r.agent, action(r.what, l10n));
    case 'no_session':
      return l10n.t('That session is no longer shown. Pick a session in the Plans view, then try again.');
    case 'title_empty':
      return l10n.t('Type a title: it cannot be empty.');
    case 'title_too_long':
      return l10n.t('Shorten the title to {0} characters at most.', r.max);
    case 'agent_refused':
      return r.what === 'fork'
        ? l10n.t('{0} could not fork the session ({1}). Nothing was created; try again, or start a new session.', r.agent, r.message)
        : l10n.t('{0} refused ({1}). Try again, or see the log.', r.agent, r.message);
    default:
      return r satisfies never;
  }
}
