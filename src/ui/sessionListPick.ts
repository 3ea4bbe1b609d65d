// The "Resume which session?" pick over `session/list`, one page at a time: the first page is
// shown at once, and a "Load more sessions…" row fetches the next (`nextCursor`) on demand,
// within the bounds of SessionPages.
import * as vscode from 'vscode';
import type { SessionListEntry } from '../protocol/api';
import type { ListedSession } from '../app/sessionManagement/listing';
import { SessionPages, type SessionLister } from '../protocol/sessionPages';

/** Shows the pick; resolves with the chosen session, or undefined when dismissed. */
export async function pickListedSession(list: SessionLister): Promise<SessionListEntry | undefined> {
  const MORE = vscode.l10n.t('Load more sessions…');
  const pages = new SessionPages(list);
  await pages.fetch();
  for (;;) {
    const items: (vscode.QuickPickItem & { s?: SessionListEntry })[] = pages.sessions.map((s) => ({
      label: s.title ?? s.sessionId,
      description: [s.updatedAt, ...listedFacts(s)].filter(Boolean).join(' · '),
      s,
    }));
    if (pages.more) items.push({ label: MORE, description: vscode.l10n.t('{0} listed so far', pages.sessions.length) });
    else if (pages.stoppedEarly) items.push({ label: `(${pages.stoppedEarly})`, description: '' });
    if (items.length === 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('The agent has no sessions to resume in this folder.'));
      return undefined;
    }
    const pick = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Resume which session?') });
    if (!pick) return undefined;
    if (pick.s) return pick.s;
    if (pick.label !== MORE) continue;
    await pages.fetch();
  }
}

/** What the agent says of a listed session beyond its title: archived, and its `session/status` (where offered). */
export function listedFacts(s: ListedSession): string[] {
  const out: string[] = [];
  if (s.archived) out.push(vscode.l10n.t('archived'));
  // An unknown status reads as `saved`, as the protocol asks.
  if (s.status) out.push(s.status.status === 'open' ? vscode.l10n.t('open on the agent') : vscode.l10n.t('saved on the agent'));
  if (s.status?.state === 'running') out.push(vscode.l10n.t('running'));
  else if (s.status?.state === 'requires_action') out.push(vscode.l10n.t('waiting for you'));
  return out;
}
