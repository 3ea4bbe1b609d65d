// How each registry entry reads in the quick pick: name, version, license, the distributions this
// machine can use, installed / update-available marks, and entries with nothing for this machine
// shown as unavailable (listed last, never hidden). No `vscode`.
import type { InstalledAgentRecord } from '../agents/installedDefinitions';
import { availableKinds, binaryPlatforms, type DistributionKind } from './launch';
import type { PlatformKey, RegistryEntry } from './schema';
import { compareVersions } from './versions';

export type EntryState = 'new' | 'installed' | 'update' | 'unavailable';

export interface EntryView {
  entry: RegistryEntry;
  state: EntryState;
  kinds: DistributionKind[];
  installed?: InstalledAgentRecord;
  label: string;
  description: string;
  detail: string;
}

export function entryView(entry: RegistryEntry, platform: PlatformKey | undefined, installed: InstalledAgentRecord | undefined): EntryView {
  const kinds = availableKinds(entry, platform);
  const state: EntryState = installed
    ? compareVersions(entry.version, installed.version) > 0
      ? 'update'
      : 'installed'
    : kinds.length === 0
      ? 'unavailable'
      : 'new';
  const parts = [`v${entry.version}`, entry.license ?? 'license not stated'];
  if (kinds.length) parts.push(kinds.join(', '));
  else
    parts.push(`unavailable here (${platform ?? 'this platform'}${binaryPlatforms(entry).length ? `; builds for ${binaryPlatforms(entry).join(', ')}` : ''})`);
  if (state === 'installed') parts.unshift(`installed ${installed!.version}`);
  if (state === 'update') parts.unshift(`update available (installed ${installed!.version})`);
  return { entry, state, kinds, ...(installed ? { installed } : {}), label: entry.name, description: parts.join(' · '), detail: entry.description };
}

/** All entries as the quick pick lists them: installable first (registry order), unavailable last. */
export function entryViews(entries: readonly RegistryEntry[], platform: PlatformKey | undefined, installed: readonly InstalledAgentRecord[]): EntryView[] {
  const byId = new Map(installed.map((r) => [r.id, r]));
  const views = entries.map((e) => entryView(e, platform, byId.get(e.id)));
  return [...views.filter((v) => v.state !== 'unavailable'), ...views.filter((v) => v.state === 'unavailable')];
}
