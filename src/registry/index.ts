// Entry point of dist/registry.js, the registry module the extension loads only when a registry
// command runs (src/ui/registryCommands.ts). Everything it uses comes in the RegistryHost argument.
// Each command: refuses in an untrusted window, tidies leftovers (stale temp folders, unused
// versions), runs its flow, and shows any failure as a message saying what happened.
import * as vscode from 'vscode';
import { REGISTRY_AGENT_PREFIX, type InstalledAgentRecord } from '../agents/installedDefinitions';
import type { RegistryCommandArg, RegistryHost, RegistryModule } from './api';
import { CancelledError } from './http';
import { prune } from './installer';
import { platformKey } from './platform';
import { compareVersions } from './versions';
import { findEntry, loadAndReport, pickEntry } from './ui/browse';
import { installEntry, removeInstallDir, updateEntry } from './ui/install';
import { confirmPick } from './ui/confirm';
import { noBuildMessage } from './installer';

let busy = false;

async function guard<T>(host: RegistryHost, what: string, fallback: T, fn: () => Promise<T>): Promise<T> {
  if (!vscode.workspace.isTrusted) {
    void vscode.window
      .showWarningMessage(
        vscode.l10n.t('{0} needs a trusted window: an agent is a program that runs code on this machine. Trust this workspace first.', what),
        vscode.l10n.t('Manage Workspace Trust'),
      )
      .then((p) => {
        if (p) void vscode.commands.executeCommand('workbench.trust.manage');
      });
    return fallback;
  }
  if (busy) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Another registry install, update or uninstall is in progress; try again when it is done.'));
    return fallback;
  }
  busy = true;
  const keep = new Set(host.installed.list().flatMap((r) => (r.installDir ? [r.installDir] : [])));
  void prune(host.storageRoot, keep).then(
    (gone) => {
      for (const g of gone) host.log.info(`[registry] removed leftover ${g}`);
    },
    () => undefined,
  );
  try {
    return await fn();
  } catch (err) {
    if (err instanceof CancelledError) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} was cancelled; nothing was installed or changed.', what));
      return fallback;
    }
    const message = err instanceof Error ? err.message : String(err);
    host.log.error(`[registry] ${what}: ${message}`);
    void vscode.window.showErrorMessage(message, vscode.l10n.t('Show Log')).then((p) => {
      if (p) host.log.show(true);
    });
    return fallback;
  } finally {
    busy = false;
  }
}

function argOf(arg: unknown): RegistryCommandArg {
  if (typeof arg === 'string') return arg.startsWith(REGISTRY_AGENT_PREFIX) ? { agentId: arg } : { id: arg };
  return arg && typeof arg === 'object' ? (arg as RegistryCommandArg) : {};
}

/** The installed agent a command acts on: its argument, else a quick pick. */
async function pickInstalled(host: RegistryHost, arg: unknown, placeHolder: string, marks?: Map<string, string>): Promise<InstalledAgentRecord | undefined> {
  const a = argOf(arg);
  const id = a.agentId?.startsWith(REGISTRY_AGENT_PREFIX) ? a.agentId.slice(REGISTRY_AGENT_PREFIX.length) : a.id;
  const list = host.installed.list();
  if (id) {
    const rec = list.find((r) => r.id === id);
    if (!rec) throw new Error(vscode.l10n.t('No agent "{0}" is installed from the ACP Registry.', id));
    return rec;
  }
  if (list.length === 0) {
    void vscode.window
      .showInformationMessage(vscode.l10n.t('No agent is installed from the ACP Registry yet.'), vscode.l10n.t('Add Agent from Registry…'))
      .then((p) => {
        if (p) void vscode.commands.executeCommand('acp.addAgentFromRegistry');
      });
    return undefined;
  }
  const pick = await vscode.window.showQuickPick(
    list.map((r) => ({
      label: r.name,
      description: [`v${r.version}`, r.kind, marks?.get(r.id)].filter(Boolean).join(' · '),
      detail: `${r.command} ${r.args.join(' ')}`,
      r,
    })),
    { placeHolder },
  );
  return pick?.r;
}

export const addAgentFromRegistry: RegistryModule['addAgentFromRegistry'] = (host, arg) =>
  guard(host, vscode.l10n.t('Adding an agent from the ACP Registry'), undefined, async () => {
    const platform = platformKey();
    const id = argOf(arg).id;
    const picked = id ? await findEntry(host, id, platform) : await pickEntry(host, platform);
    if (!picked) return undefined;
    const { view, loaded } = picked;
    const agentId = REGISTRY_AGENT_PREFIX + view.entry.id;
    switch (view.state) {
      case 'unavailable':
        throw new Error(noBuildMessage(view.entry, platform, vscode.l10n));
      case 'installed':
        void vscode.window
          .showInformationMessage(vscode.l10n.t('{0} {1} is already installed.', view.entry.name, view.installed?.version ?? ''), vscode.l10n.t('New Session'))
          .then((p) => {
            if (p) void vscode.commands.executeCommand('acp.newSession', agentId);
          });
        return agentId;
      case 'update':
        return (await updateEntry(host, view.installed!, view.entry, platform, loaded.url)) ? agentId : undefined;
      case 'new':
        return installEntry(host, view.entry, platform, loaded.url);
      default:
        return view.state satisfies never;
    }
  });

export const uninstallAgent: RegistryModule['uninstallAgent'] = (host, arg) =>
  guard(host, vscode.l10n.t('Uninstalling an agent'), false, async () => {
    const rec = await pickInstalled(host, arg, vscode.l10n.t('Uninstall which agent?'));
    if (!rec) return false;
    const ok = await confirmPick({
      title: vscode.l10n.t('Uninstall {0} {1}?', rec.name, rec.version),
      action: vscode.l10n.t('Uninstall'),
      actionDetail: `${rec.command} ${rec.args.join(' ')}`,
      facts: [
        rec.installDir
          ? { label: vscode.l10n.t('Its files are deleted'), value: rec.installDir }
          : { label: vscode.l10n.t('Only the agent entry is removed'), value: vscode.l10n.t('{0} keeps its own package cache.', rec.kind) },
        { label: vscode.l10n.t('Its sessions stop'), value: vscode.l10n.t('Plans and conversations stay in the Plans history.') },
      ],
    });
    if (!ok) return false;
    const agentId = REGISTRY_AGENT_PREFIX + rec.id;
    const status = host.agents.status(agentId);
    if (status !== undefined && status !== 'stopped') await host.agents.stopAgent(agentId);
    await host.installed.remove(rec.id);
    await removeInstallDir(host, rec.installDir);
    void vscode.window.showInformationMessage(vscode.l10n.t('{0} is uninstalled.', rec.name));
    return true;
  });

export const updateAgent: RegistryModule['updateAgent'] = (host, arg) =>
  guard(host, vscode.l10n.t('Updating an agent'), false, async () => {
    const loaded = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: vscode.l10n.t('Loading the ACP Registry…') }, () =>
      loadAndReport(host),
    );
    const byId = new Map(loaded.index.agents.map((e) => [e.id, e]));
    const marks = new Map(
      host.installed.list().map((r) => {
        const e = byId.get(r.id);
        const mark = !e
          ? vscode.l10n.t('no longer listed')
          : compareVersions(e.version, r.version) > 0
            ? vscode.l10n.t('update available: {0}', e.version)
            : vscode.l10n.t('up to date');
        return [r.id, mark];
      }),
    );
    const rec = await pickInstalled(host, arg, vscode.l10n.t('Update which agent?'), marks);
    if (!rec) return false;
    const entry = byId.get(rec.id);
    if (!entry) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} is no longer listed in the ACP Registry; {1} stays installed.', rec.name, rec.version));
      return false;
    }
    if (compareVersions(entry.version, rec.version) <= 0) {
      void vscode.window.showInformationMessage(vscode.l10n.t('{0} {1} is up to date.', rec.name, rec.version));
      return false;
    }
    return updateEntry(host, rec, entry, platformKey(), loaded.url);
  });

/** What dist/registry.js exports (checked against the loader's type). */
export const registryModule: RegistryModule = { addAgentFromRegistry, uninstallAgent, updateAgent };
