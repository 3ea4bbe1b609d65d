// HARNESS_LOCALE=de: the profile gets a German language pack the way a person gets one — the
// stub pack in test/fixtures/language-pack-de packed as a VSIX and installed from it (code-server's
// `--install-extension`, what Install from VSIX does), then German chosen as Configure Display
// Language chooses it (`"locale"` in the profile's argv.json, read when the server starts).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CODE_SERVER, NODE24, ROOT } from './code-server.mjs';

/** Installs the stub language pack for `locale` into `profile` and makes it the display language. */
export function installLanguagePack(profile, locale) {
  const source = path.join(ROOT, 'test/fixtures', `language-pack-${locale}`);
  const dir = mkdtempSync(path.join(tmpdir(), 'acp-langpack-'));
  const vsix = path.join(dir, `language-pack-${locale}.vsix`);
  try {
    run(
      process.execPath,
      [path.join(ROOT, 'node_modules/@vscode/vsce/vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix],
      source,
    );
    run(NODE24, [CODE_SERVER, '--user-data-dir', profile.userData, '--extensions-dir', profile.extensions, '--install-extension', vsix], source);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  noteLanguagePack(profile, locale);
  writeFileSync(path.join(profile.userData, 'User', 'argv.json'), JSON.stringify({ locale }, null, 2));
}

/**
 * The server's list of installed language packs (`languagepacks.json`, in its format): a window
 * writes it when a pack is installed in it; the command-line install does not, and the server
 * reads only this list when it picks the window's language.
 */
function noteLanguagePack(profile, locale) {
  const manifest = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures', `language-pack-${locale}`, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`.toLowerCase();
  const folder = path.join(profile.extensions, `${id}-${manifest.version}`);
  const packs = {};
  for (const l of manifest.contributes.localizations)
    packs[l.languageId] = {
      hash: createHash('md5').update(id).update(manifest.version).digest('hex'),
      extensions: [{ extensionIdentifier: { id }, version: manifest.version }],
      translations: Object.fromEntries(l.translations.map((t) => [t.id, path.join(folder, t.path)])),
      label: l.localizedLanguageName ?? l.languageName,
    };
  writeFileSync(path.join(profile.userData, 'languagepacks.json'), JSON.stringify(packs));
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, EXTENSIONS_GALLERY: '{}' } });
  if (r.status !== 0) throw new Error(`${path.basename(args[0] ?? cmd)} ${args.slice(1, 3).join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
}
