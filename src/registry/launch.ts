// From a registry entry to the command line that runs the agent, in the forms the registry
// documents:
//   npx: `npx -y <package> [args]`            or `npx -y --package <package> <cmd> [args]`
//   uvx: `uvx <package> [args]`               or `uvx --from <package> <cmd> [args]`
//   binary: `<install folder>/<cmd> [args]`   (cmd is a path inside the extracted archive)
// `-y` answers npx's "Ok to proceed?" (an agent's stdin is the protocol, not a person). The
// package is used as the registry gives it (with its pinned version). No `vscode`.
import * as path from 'path';
import type { BinaryTarget, PackageDistribution, PlatformKey, RegistryEntry } from './schema';
import { inside, safeRelative } from './safePath';

export type DistributionKind = 'binary' | 'npx' | 'uvx';

export interface LaunchCommand {
  command: string;
  args: string[];
  env: Record<string, string>;
}

/** The distributions of an entry that can run on `platform`, preferred first (binary, npx, uvx). */
export function availableKinds(entry: RegistryEntry, platform: PlatformKey | undefined): DistributionKind[] {
  const out: DistributionKind[] = [];
  if (platform && entry.distribution.binary?.[platform]) out.push('binary');
  if (entry.distribution.npx) out.push('npx');
  if (entry.distribution.uvx) out.push('uvx');
  return out;
}

/** The platforms an entry has a binary for (for "no build for this platform" messages). */
export function binaryPlatforms(entry: RegistryEntry): PlatformKey[] {
  return Object.keys(entry.distribution.binary ?? {}) as PlatformKey[];
}

/** `npx`/`uvx` launch command for a package distribution. */
export function packageLaunch(kind: 'npx' | 'uvx', d: PackageDistribution): LaunchCommand {
  const args = d.args ?? [];
  const env = { ...(d.env ?? {}) };
  if (kind === 'npx') {
    return { command: 'npx', args: d.cmd ? ['-y', '--package', d.package, d.cmd, ...args] : ['-y', d.package, ...args], env };
  }
  return { command: 'uvx', args: d.cmd ? ['--from', d.package, d.cmd, ...args] : [d.package, ...args], env };
}

/** The executable inside an install folder for a binary target (throws when `cmd` escapes it). */
export function binaryExecutable(target: BinaryTarget, installDir: string): string {
  const rel = safeRelative(target.cmd, 'cmd');
  if (!rel) throw new Error(`The entry's "cmd" ("${target.cmd}") names no file.`);
  return inside(installDir, rel);
}

/** The launch command of a binary target extracted into `installDir`. */
export function binaryLaunch(target: BinaryTarget, installDir: string): LaunchCommand {
  return { command: binaryExecutable(target, installDir), args: target.args ?? [], env: { ...(target.env ?? {}) } };
}

/** One argument quoted for display in a POSIX shell (what the confirmation shows). */
export function quoteArg(s: string): string {
  if (s !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The whole command line as the confirmation shows it: env assignments, command, args. */
export function commandLine(l: LaunchCommand): string {
  const env = Object.entries(l.env).map(([k, v]) => `${k}=${quoteArg(v)}`);
  return [...env, quoteArg(l.command), ...l.args.map(quoteArg)].join(' ');
}

/** The file name a raw (not archived) binary is saved under: the `cmd`'s last segment. */
export function rawBinaryName(target: BinaryTarget): string {
  const rel = safeRelative(target.cmd, 'cmd');
  return path.posix.basename(rel);
}
