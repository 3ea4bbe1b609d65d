// Feature: session management (ACP v2, unstable): Fork Session, Archive / Unarchive Session and
// Rename Session… on session rows and in the palette, each where the agent offers it
// (src/app/sessionManagement decides, src/ui/sessionManagement asks and words). Archived sessions
// fold under an "Archived" row of their agent in the Plans tree; the archive marks are kept in the
// workspace's memento, titles in the history (a `session_info` event, as the agent's own titles).
import { ArchiveMarks } from '../../app/sessionManagement/archiveMarks';
import { SessionManagement } from '../../app/sessionManagement/sessionManagement';
import { DisposableStore, toDisposable } from '../../common/lifecycle';
import { registerSessionManagementCommands } from '../../ui/sessionManagement/sessionManagementCommands';
import type { Feature } from '../host';
import { PLANS_VIEW } from '../ports';

export const sessionManagementFeature: Feature = {
  name: 'session management',
  activate(host) {
    const owned = new DisposableStore();
    const marks = new ArchiveMarks(host.context.workspaceState);
    owned.add(toDisposable(() => marks.dispose()));
    const manage = new SessionManagement({
      agents: host.agents,
      store: host.store,
      marks,
      apply: (agentId, e) => host.apply(agentId, e),
      close: (ref) => host.actions.closeSession(ref),
    });
    const tree = host.port(PLANS_VIEW)?.tree;
    if (tree)
      owned.add(
        tree.archived.show({
          isArchived: (a, s) => manage.isArchived(a, s),
          facets: (a, s) => manage.facets(a, s),
          onDidChange: (listener) => manage.onDidChangeRows(listener),
        }),
      );
    const log = { error: (m: string) => host.logs.main.error(m), show: (p?: boolean) => host.logs.main.show(p) };
    owned.add(registerSessionManagementCommands({ manage, store: host.store, log }));
    return owned;
  },
};
