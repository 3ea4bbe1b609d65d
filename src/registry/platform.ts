// This machine's key in a registry `binary` distribution (`linux-x86_64`, `darwin-aarch64`, …).
// No `vscode`.
import type { PlatformKey } from './schema';

/** The registry's platform key for a Node `process.platform` / `process.arch`, or undefined. */
export function platformKey(platform: string = process.platform, arch: string = process.arch): PlatformKey | undefined {
  const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : undefined;
  const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
  return os && cpu ? (`${os}-${cpu}` as PlatformKey) : undefined;
}
