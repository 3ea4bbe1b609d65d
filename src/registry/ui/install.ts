// Install and update, as the user sees them: choose how (when an entry has several
// distributions), a modal confirmation that shows exactly what will run (command line, source,
// license), the download with progress and Cancel, then the agent is started (and sign-in offered
// when it asks for it). Update installs the new version beside the old one and switches only once
// the new one has started; if it does not start, the old one is kept.
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { REGISTRY_AGENT_PREFIX, type InstalledAgentRecord } from '../../agents/installedDefinitions';
import type { RegistryHost } from '../api';
import { agentsDir, installBinary } from '../installer';
import { isWithin } from '../safePath';
import { planInstall, plansFor, type InstallPlan } from '../plan';
import type { PlatformKey, RegistryEntry } from '../schema';
import { findOnPath, toolHelp } from '../tools';
import { offerSignIn } from './signIn';
import { confirmPick } from './confirm';
import { registrySettings } from './settings';

const mib = (n: number): string => `${(n / 1048576).toFixed(1)} MiB`;

/** Several distributions: the user picks one (each shown with its command line). */
export async function choosePlan(
  entry: RegistryEntry,
  platform: PlatformKey | undefined,
  root: string,
  prefer?: InstallPlan['kind'],
): Promise<InstallPlan | undefined> {
  const plans = plansFor(entry, platform, root);
  const preferred = prefer && plans.find((p) => p.kind === prefer);
  if (preferred) return preferred;
  if (plans.length <= 1) return plans[0];
  const pick = await vscode.window.showQuickPick(
    plans.map((p) => ({
      label: p.kind === 'binary' ? vscode.l10n.t('Download the binary') : vscode.l10n.t('Run with {0}', p.kind),
      description: p.kind,
      detail: p.commandLine,
      p,
    })),
    { title: vscode.l10n.t('Install {0} {1}', entry.name, entry.version), placeHolder: vscode.l10n.t('How should the agent be installed?') },
  );
  return pick?.p;
}

/** The confirmation (see confirm.ts); true when the user accepts. */
export async function confirmPlan(plan: InstallPlan, registryUrl: string, from?: InstalledAgentRecord): Promise<boolean> {
  const e = plan.entry;
  const facts: { label: string; value: string; warning?: boolean }[] = [];
  let other: { label: string; run: () => void } | undefined;
  if (plan.kind !== 'binary' && !findOnPath(plan.kind)) {
    const help = toolHelp(plan.kind, vscode.l10n);
    facts.push({ label: vscode.l10n.t('{0} is missing', plan.kind), value: help.missing, warning: true });
    other = { label: help.button, run: () => void vscode.env.openExternal(vscode.Uri.parse(help.url)) };
  }
  facts.push(
    { label: vscode.l10n.t('Source'), value: plan.source },
    { label: vscode.l10n.t('License'), value: plan.license },
    { label: vscode.l10n.t('Listed by'), value: registryUrl },
  );
  if (plan.installDir) facts.push({ label: vscode.l10n.t('Installed in'), value: plan.installDir });
  if (from)
    facts.push({
      label: vscode.l10n.t('{0} is kept until {1} starts', from.version, e.version),
      value: vscode.l10n.t('Running sessions of {0} are stopped; if {1} does not start, {2} stays.', e.name, e.version, from.version),
    });
  facts.push({
    label: vscode.l10n.t('The agent is a program'),
    value: vscode.l10n.t('It runs with your permissions on this machine, in trusted workspaces only.'),
  });
  return confirmPick({
    title: from
      ? vscode.l10n.t('Update {0} from {1} to {2}?', e.name, from.version, e.version)
      : vscode.l10n.t('Install {0} {1} from the ACP Registry?', e.name, e.version),
    action: from ? vscode.l10n.t('Update to {0}, then run:', e.version) : vscode.l10n.t('Install, then run:'),
    actionDetail: plan.commandLine,
    facts,
    ...(other ? { other } : {}),
  });
}

/** Downloads (binary) and builds the record; nothing is recorded here. */
export async function perform(host: RegistryHost, plan: InstallPlan, platform: PlatformKey | undefined, registryUrl: string): Promise<InstalledAgentRecord> {
  const e = plan.entry;
  const base = {
    id: e.id,
    name: e.name,
    version: e.version,
    kind: plan.kind,
    registryUrl,
    installedAt: Date.now(),
    ...(e.license ? { license: e.license } : {}),
  };
  if (plan.kind !== 'binary') return { ...base, command: plan.launch.command, args: plan.launch.args, env: plan.launch.env, source: plan.source };
  const done = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Installing {0} {1}', e.name, e.version), cancellable: true },
    async (progress, token) => {
      const abort = new AbortController();
      const sub = token.onCancellationRequested(() => abort.abort());
      let shown = 0,
        lastAt = 0;
      try {
        return await installBinary(e, platform, host.storageRoot, {
          maxDownloadBytes: registrySettings().maxDownloadBytes,
          signal: abort.signal,
          l10n: vscode.l10n,
          onPhase: (p) => progress.report({ message: p === 'download' ? vscode.l10n.t('downloading…') : vscode.l10n.t('unpacking…') }),
          onProgress: (got, total) => {
            const now = Date.now();
            if (now - lastAt < 200 && got !== total) return;
            lastAt = now;
            if (total) {
              const pct = Math.floor((got / total) * 100);
              progress.report({ increment: pct - shown, message: vscode.l10n.t('downloading {0} of {1}', mib(got), mib(total)) });
              shown = pct;
            } else progress.report({ message: vscode.l10n.t('downloading {0}', mib(got)) });
          },
        });
      } finally {
        sub.dispose();
      }
    },
  );
  host.log.info(`[registry] ${e.id} ${e.version}: ${done.kind} archive, ${done.bytes} bytes, sha256 ${done.sha256}, unpacked in ${done.installDir}`);
  return { ...base, command: done.launch.command, args: done.launch.args, env: done.launch.env, installDir: done.installDir, source: done.archive };
}

/** Starts the agent; on success offers sign-in when the agent lists auth methods. */
export async function startAndOfferSignIn(host: RegistryHost, rec: InstalledAgentRecord, quietSuccess = false): Promise<{ error?: Error; signIn?: boolean }> {
  const agentId = REGISTRY_AGENT_PREFIX + rec.id;
  try {
    const started = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: vscode.l10n.t('Starting {0} {1}…', rec.name, rec.version) },
      () => host.agents.startAgent(agentId),
    );
    const methods = started.authMethods;
    if (methods.length) {
      void offerSignIn(host, agentId, rec.name, [...methods]);
      return { signIn: true };
    }
    if (!quietSuccess) {
      void vscode.window
        .showInformationMessage(vscode.l10n.t('{0} {1} is installed and running.', rec.name, rec.version), vscode.l10n.t('New Session'))
        .then((p) => {
          if (p) void vscode.commands.executeCommand('acp.newSession', agentId);
        });
    }
    return {};
  } catch (err) {
    return { error: err instanceof Error ? err : new Error(String(err)) };
  }
}

/** Removes an install folder, only ever one under `<storage>/agents`. */
export async function removeInstallDir(host: RegistryHost, dir: string | undefined): Promise<void> {
  if (!dir) return;
  const top = agentsDir(host.storageRoot);
  if (dir === top || !isWithin(top, dir)) return;
  await fs.promises.rm(dir, { recursive: true, force: true });
  await fs.promises.rmdir(path.dirname(dir)).catch(() => undefined); // the agent's folder, once empty
}

/** A fresh install: confirm, install, record, start. Resolves with the agent id. */
export async function installEntry(
  host: RegistryHost,
  entry: RegistryEntry,
  platform: PlatformKey | undefined,
  registryUrl: string,
): Promise<string | undefined> {
  const plan = await choosePlan(entry, platform, host.storageRoot);
  if (!plan) return undefined;
  if (!(await confirmPlan(plan, registryUrl))) return undefined;
  const rec = await perform(host, plan, platform, registryUrl);
  await host.installed.put(rec);
  const { error: err } = await startAndOfferSignIn(host, rec);
  if (err) {
    host.log.error(`[registry] ${rec.name} ${rec.version} did not start: ${err.message}`);
    const showLog = vscode.l10n.t('Show Log');
    const uninstall = vscode.l10n.t('Uninstall');
    const message = vscode.l10n.t('{0} {1} was installed but did not start: {2}', rec.name, rec.version, err.message);
    void vscode.window.showErrorMessage(message, showLog, uninstall).then((p) => {
      if (p === showLog) host.log.show(true);
      if (p === uninstall) void vscode.commands.executeCommand('acp.uninstallAgent', REGISTRY_AGENT_PREFIX + rec.id);
    });
  }
  return REGISTRY_AGENT_PREFIX + rec.id;
}

/** Update: the new version goes beside the old; the switch sticks only once the new one starts. */
export async function updateEntry(
  host: RegistryHost,
  old: InstalledAgentRecord,
  entry: RegistryEntry,
  platform: PlatformKey | undefined,
  registryUrl: string,
): Promise<boolean> {
  const plan = plansFor(entry, platform, host.storageRoot).some((p) => p.kind === old.kind)
    ? planInstall(entry, old.kind, platform, host.storageRoot)
    : await choosePlan(entry, platform, host.storageRoot);
  if (!plan) return false;
  if (!(await confirmPlan(plan, registryUrl, old))) return false;
  const rec = await perform(host, plan, platform, registryUrl);
  const agentId = REGISTRY_AGENT_PREFIX + old.id;
  const status = host.agents.status(agentId);
  const wasRunning = status !== undefined && status !== 'stopped' && status !== 'failed' && status !== 'crashed';
  if (status !== undefined && status !== 'stopped') await host.agents.stopAgent(agentId);
  await host.installed.put(rec);
  const { error: err, signIn } = await startAndOfferSignIn(host, rec, true);
  if (err) {
    await host.installed.put(old);
    if (rec.installDir !== old.installDir) await removeInstallDir(host, rec.installDir);
    if (wasRunning) await host.agents.startAgent(agentId).catch(() => undefined);
    throw new Error(vscode.l10n.t('{0} {1} did not start ({2}), so {3} is kept.', entry.name, entry.version, err.message, old.version));
  }
  if (old.installDir && old.installDir !== rec.installDir) await removeInstallDir(host, old.installDir);
  if (!wasRunning && !signIn) await host.agents.stopAgent(agentId).catch(() => undefined);
  void vscode.window.showInformationMessage(vscode.l10n.t('{0} is updated to {1}.', entry.name, entry.version));
  return true;
}
