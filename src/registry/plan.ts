// What installing one entry will do, before anything is done: the distribution used, the exact
// command line (for a binary: the path it will have once unpacked), where it comes from and its
// license. The confirmation shows this; the installer then does exactly this. No `vscode`.
import { availableKinds, binaryLaunch, commandLine, packageLaunch, type DistributionKind, type LaunchCommand } from './launch';
import { versionDir } from './installer';
import type { PlatformKey, RegistryEntry } from './schema';

export interface InstallPlan {
  entry: RegistryEntry;
  kind: DistributionKind;
  launch: LaunchCommand;
  commandLine: string;
  /** The archive URL, or the package and where it is published. */
  source: string;
  license: string;
  installDir?: string;
}

export function packageSource(kind: 'npx' | 'uvx', pkg: string): string {
  return kind === 'npx' ? `npm package ${pkg} (fetched by npx from the npm registry)` : `Python package ${pkg} (fetched by uvx from PyPI)`;
}

export function planInstall(entry: RegistryEntry, kind: DistributionKind, platform: PlatformKey | undefined, storageRoot: string): InstallPlan {
  const license = entry.license ?? 'not stated';
  if (kind === 'binary') {
    const target = platform ? entry.distribution.binary?.[platform] : undefined;
    if (!target) throw new Error(`${entry.name} has no binary for this machine.`);
    const installDir = versionDir(storageRoot, entry.id, entry.version);
    const launch = binaryLaunch(target, installDir);
    return {
      entry,
      kind,
      launch,
      commandLine: commandLine(launch),
      source: target.archive + (target.sha256 ? ` (sha256 ${target.sha256.toLowerCase()})` : ''),
      license,
      installDir,
    };
  }
  const d = entry.distribution[kind];
  if (!d) throw new Error(`${entry.name} has no ${kind} distribution.`);
  const launch = packageLaunch(kind, d);
  return { entry, kind, launch, commandLine: commandLine(launch), source: packageSource(kind, d.package), license };
}

/** Every way the entry can be installed here, preferred first. */
export function plansFor(entry: RegistryEntry, platform: PlatformKey | undefined, storageRoot: string): InstallPlan[] {
  return availableKinds(entry, platform).map((k) => planInstall(entry, k, platform, storageRoot));
}
