// Whether `npx` / `uvx` can be found on PATH (what the agent process will search), so the
// confirmation can say clearly when one is missing. No `vscode`.
import { english, type L10n } from '../common/l10n';
import * as fs from 'fs';
import * as path from 'path';

/** The full path of `command` on `PATH`, or undefined. */
export function findOnPath(command: string, env: NodeJS.ProcessEnv = process.env, platform: string = process.platform): string | undefined {
  const dirs = (env.PATH ?? env.Path ?? '').split(path.delimiter).filter(Boolean);
  const exts = platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter(Boolean) : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const p = path.join(dir, command + ext);
      try {
        const st = fs.statSync(p);
        if (st.isFile() && (platform === 'win32' || (st.mode & 0o111) !== 0)) return p;
      } catch {
        /* not here */
      }
    }
  }
  return undefined;
}

/** What to tell the user when a package runner is missing. */
export function toolHelp(tool: 'npx' | 'uvx', l10n: L10n = english): { missing: string; url: string; button: string } {
  return tool === 'npx'
    ? {
        missing: l10n.t('npx was not found on PATH. It comes with Node.js: install Node.js (https://nodejs.org), then start the agent.'),
        url: 'https://nodejs.org/en/download',
        button: l10n.t('Get Node.js'),
      }
    : {
        missing: l10n.t('uvx was not found on PATH. It comes with uv: install uv (https://docs.astral.sh/uv/), then start the agent.'),
        url: 'https://docs.astral.sh/uv/getting-started/installation/',
        button: l10n.t('Get uv'),
      };
}
