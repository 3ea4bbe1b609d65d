#!/usr/bin/env node
// `npm run demo`: the real VS Code (code-server, the same one the tests use) on 127.0.0.1 with
// ACP Plans loaded from this folder and a sample workspace. Open the printed URL in a browser,
// click the ACP icon in the activity bar, then "Start Demo Agent", and type a prompt in the
// Conversation view (or run "ACP: Send Prompt…"). Ctrl+C stops it.
//   PORT=8080 npm run demo      a fixed port (default: a free one)
import { cpSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT, ensureInstalled, makeProfile, startCodeServer, workbenchUrl } from './lib/code-server.mjs';

ensureInstalled();
const profile = makeProfile({ 'workbench.colorTheme': process.env.THEME ?? 'Default Dark Modern' });
const folder = path.join(profile.base, 'demo-workspace');
mkdirSync(folder, { recursive: true });
cpSync(path.join(ROOT, 'test/fixtures/workspace'), folder, { recursive: true });
const port = Number(process.env.PORT ?? 0);
const server = await startCodeServer({ profile, folder, extraArgs: port ? ['--bind-addr', `127.0.0.1:${port}`] : [] });
const url = workbenchUrl({ url: server.url, port: server.port, folder, extensionDevelopmentPath: ROOT });
console.log('\nACP Plans demo is running (VS Code in the browser, extension loaded from this folder).');
console.log(`\n  Open: ${url}\n`);
console.log('Then: ACP icon in the activity bar → "Start Demo Agent" → type a prompt in the Conversation view.');
console.log('Ctrl+C to stop.');
const stop = async () => {
  await server.stop();
  profile.cleanup();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
