// The registry quick pick: opens at once (busy while the index loads), then lists every valid
// entry with its icon, version, license, the distributions this machine can use and the
// installed / update-available marks; unavailable entries are listed last under their own
// separator. Typing filters on name, description and details. Offline, the title says the list is
// the cached copy and how old it is.
import * as path from 'path';
import * as vscode from 'vscode';
import type { RegistryHost } from '../api';
import { describeAge, loadIndex, type LoadedIndex } from '../indexSource';
import { loadIcons } from '../icons';
import { entryViews, type EntryView } from '../items';
import type { PlatformKey } from '../schema';
import { registrySettings } from './settings';

interface EntryItem extends vscode.QuickPickItem {
  view?: EntryView;
}

export interface Picked {
  view: EntryView;
  loaded: LoadedIndex;
}

const ICONS = (host: RegistryHost): string => path.join(host.storageRoot, 'icons');

/** Loads the index; reports skipped entries and a stale copy (once per load). */
export async function loadAndReport(host: RegistryHost, signal?: AbortSignal): Promise<LoadedIndex> {
  const loaded = await loadIndex(registrySettings().url, { cacheDir: host.storageRoot, l10n: vscode.l10n, ...(signal ? { signal } : {}) });
  const { skipped } = loaded.index;
  if (skipped.length) {
    for (const s of skipped) host.log.warn(`[registry] entry #${s.position}${s.id ? ` "${s.id}"` : ''} skipped: ${s.reason}`);
    const names = skipped
      .slice(0, 3)
      .map((s) => (s.id ? `"${s.id}"` : `#${s.position}`))
      .join(', ');
    const listed = `${names}${skipped.length > 3 ? ', …' : ''}`;
    void vscode.window
      .showWarningMessage(
        skipped.length === 1
          ? vscode.l10n.t('1 ACP Registry entry was skipped because it is invalid ({0}). The others are listed.', listed)
          : vscode.l10n.t('{0} ACP Registry entries were skipped because they are invalid ({1}). The others are listed.', skipped.length, listed),
        vscode.l10n.t('Show Log'),
      )
      .then((p) => {
        if (p) host.log.show(true);
      });
  }
  if (loaded.staleBecause) {
    host.log.warn(`[registry] using the cached index: ${loaded.staleBecause}`);
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Showing the cached ACP Registry list from {0} ago: {1}', describeAge(Date.now() - loaded.fetchedAt, vscode.l10n), loaded.staleBecause),
    );
  }
  return loaded;
}

function toItems(views: EntryView[], icons: ReadonlyMap<string, string>): EntryItem[] {
  const items: EntryItem[] = [];
  let separated = false;
  for (const v of views) {
    if (v.state === 'unavailable' && !separated) {
      items.push({ label: vscode.l10n.t('Unavailable on this machine'), kind: vscode.QuickPickItemKind.Separator });
      separated = true;
    }
    const file = icons.get(v.entry.id);
    const iconPath =
      v.state === 'unavailable'
        ? new vscode.ThemeIcon('circle-slash')
        : file
          ? vscode.Uri.file(file)
          : new vscode.ThemeIcon(v.state === 'installed' ? 'check' : v.state === 'update' ? 'arrow-circle-up' : 'hubot');
    items.push({ label: v.label, description: v.description, detail: v.detail, iconPath, view: v });
  }
  return items;
}

/** Shows the quick pick; resolves with the accepted entry, or undefined when dismissed. */
export async function pickEntry(host: RegistryHost, platform: PlatformKey | undefined): Promise<Picked | undefined> {
  const qp = vscode.window.createQuickPick<EntryItem>();
  const abort = new AbortController();
  const subs: vscode.Disposable[] = [qp];
  try {
    qp.title = vscode.l10n.t('Add Agent from the ACP Registry');
    qp.placeholder = vscode.l10n.t('Loading the ACP Registry…');
    qp.busy = true;
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    const result = new Promise<EntryItem | undefined>((resolve) => {
      subs.push(
        qp.onDidAccept(() => {
          if (qp.selectedItems[0]?.view) {
            resolve(qp.selectedItems[0]);
            qp.hide();
          }
        }),
      );
      subs.push(
        qp.onDidHide(() => {
          abort.abort();
          resolve(undefined);
        }),
      );
    });
    qp.show();
    let loaded: LoadedIndex;
    try {
      loaded = await loadAndReport(host, abort.signal);
    } catch (err) {
      qp.hide();
      throw err;
    }
    const views = entryViews(loaded.index.agents, platform, host.installed.list());
    qp.items = toItems(views, new Map());
    qp.busy = false;
    qp.title = loaded.staleBecause
      ? vscode.l10n.t('ACP Registry — offline: cached list from {0} ago', describeAge(Date.now() - loaded.fetchedAt, vscode.l10n))
      : views.length === 1
        ? vscode.l10n.t('ACP Registry — 1 agent')
        : vscode.l10n.t('ACP Registry — {0} agents', views.length);
    qp.placeholder = vscode.l10n.t('Pick an agent to install (type to filter)');
    // Icons arrive later; the list is usable meanwhile.
    void loadIcons(loaded.index.agents, loaded.url, ICONS(host), abort.signal).then((icons) => {
      if (abort.signal.aborted || icons.size === 0) return;
      const active = qp.activeItems[0]?.view?.entry.id;
      qp.items = toItems(views, icons);
      const again = qp.items.find((i) => i.view?.entry.id === active);
      if (again) qp.activeItems = [again];
    });
    const item = await result;
    return item?.view ? { view: item.view, loaded } : undefined;
  } finally {
    abort.abort();
    for (const d of subs) d.dispose();
  }
}

/** `{ id }` given: the entry with that id, without a quick pick (for scripts and tests). */
export async function findEntry(host: RegistryHost, id: string, platform: PlatformKey | undefined): Promise<Picked> {
  const loaded = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading the ACP Registry…') }, () =>
    loadAndReport(host),
  );
  const view = entryViews(loaded.index.agents, platform, host.installed.list()).find((v) => v.entry.id === id);
  if (!view) throw new Error(vscode.l10n.t('The ACP Registry at {0} lists no agent "{1}".', loaded.url, id));
  return { view, loaded };
}
