// Which agent writes need the user's consent (files that run code later), and that nothing else
// asks: executesLater's list, case and Windows spelling tricks, links into sensitive folders, and
// FileAccess calling `confirm` with what the user must see.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import fc from 'fast-check';
import { executesLater, normalizeComponent } from '../../../src/agents/executesLater';
import { FileAccess, type WriteConsentRequest } from '../../../src/agents/fileAccess';
import { AccessDeniedError } from '../../../src/agents/pathPolicy';
import { german } from '../l10n/german';

const posix = process.platform !== 'win32';
const ROOT = path.resolve('/ws');
const at = (rel: string): string => path.join(ROOT, ...rel.split('/'));

const SENSITIVE = [
  '.git/hooks/pre-commit',
  '.git/config',
  '.git',
  'sub/module/.git/hooks/post-checkout',
  '.git/info/attributes',
  '.vscode/tasks.json',
  '.vscode/settings.json',
  '.vscode/launch.json',
  '.vscode/extensions.json',
  'app.code-workspace',
  '.github/workflows/ci.yml',
  '.github/actions/setup/action.yml',
  '.gitlab-ci.yml',
  '.circleci/config.yml',
  'Jenkinsfile',
  '.husky/pre-commit',
  '.githooks/pre-push',
  '.pre-commit-config.yaml',
  'lefthook.yml',
  '.envrc',
  '.mise.toml',
  '.npmrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  '.devcontainer/devcontainer.json',
  '.devcontainer.json',
  'node_modules/.bin/eslint',
  '.venv/bin/python',
  '.bashrc',
  '.zshrc',
  '.gitconfig',
  '.ssh/authorized_keys',
  '.config/autostart/x.desktop',
  '.config/git/config',
];
const NORMAL = [
  'src/index.ts',
  'package.json',
  'Makefile',
  'README.md',
  'eslint.config.js',
  '.github/CODEOWNERS',
  '.github/dependabot.yml',
  'docs/.gitkeep',
  '.gitignore',
  'src/git/hooks.ts',
  'vscode/settings.json',
  'config/autostart.ts',
  'test/.env.example',
  'github/workflows/x',
];

describe('writes that run code later (executesLater)', () => {
  it('lists hooks, editor tasks and settings, CI, start-up and tool configuration files', () => {
    for (const rel of SENSITIVE) assert.ok(executesLater(ROOT, at(rel)), `${rel} needs consent`);
  });

  it('treats ordinary project files, package.json and Makefile included, as normal edits', () => {
    for (const rel of NORMAL) assert.equal(executesLater(ROOT, at(rel)), undefined, rel);
  });

  it('ignores case, trailing dots and spaces and `:stream` suffixes in every component', () => {
    for (const rel of [
      '.GIT/hooks/pre-commit',
      '.Git./config',
      '.vscode /tasks.json',
      '.VSCode/settings.json',
      '.git:$DATA/hooks/x',
      '.GitHub/Workflows/x.yml',
      'NODE_MODULES/x',
    ]) {
      assert.ok(executesLater(ROOT, at(rel)), rel);
    }
    assert.equal(normalizeComponent('.GIT. . '), '.git');
    assert.equal(normalizeComponent('..'), '..');
  });

  it('any casing of a sensitive path needs consent (property)', () => {
    const flip = (s: string, mask: boolean[]): string => [...s].map((c, i) => (mask[i % mask.length] ? c.toUpperCase() : c.toLowerCase())).join('');
    fc.assert(
      fc.property(
        fc.constantFrom(...SENSITIVE),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 12 }),
        fc.constantFrom('', '.', ' ', '. '),
        (rel, mask, tail) => {
          const parts = rel.split('/').map((c) => flip(c, mask));
          parts[0] = parts[0] + tail;
          return executesLater(ROOT, at(parts.join('/'))) !== undefined;
        },
      ),
    );
  });

  it('plain source paths never ask (property)', () => {
    const name = fc.stringMatching(/^[a-z][a-z0-9_-]{0,11}(\.(ts|js|md|json|py))?$/);
    fc.assert(
      fc.property(fc.array(name, { minLength: 1, maxLength: 6 }), (parts) => {
        fc.pre(!parts.some((p) => ['node_modules', 'jenkinsfile', 'mise.toml', 'lefthook.yml'].includes(p)));
        return executesLater(ROOT, at(['src', ...parts].join('/'))) === undefined;
      }),
    );
  });

  it('does not classify paths outside the root (containment refuses them)', () => {
    assert.equal(executesLater(ROOT, path.resolve('/elsewhere/.git/config')), undefined);
    assert.equal(executesLater(ROOT, ROOT), undefined);
  });
});

describe('FileAccess: consent before such writes', () => {
  let tmp: string;
  let ws: string;
  let asked: WriteConsentRequest[];
  let answer: boolean | Error;
  let access: FileAccess;

  beforeEach(() => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-consent-')));
    ws = path.join(tmp, 'ws');
    fs.mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
    fs.mkdirSync(path.join(ws, 'tools', 'hooks'), { recursive: true });
    asked = [];
    answer = false;
    access = new FileAccess({
      roots: () => [ws],
      confirm: (req) => {
        asked.push(req);
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
      },
    });
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('asks once with the path and the reason, and refuses with a sentence when the user says no', async () => {
    const hook = path.join(ws, '.git', 'hooks', 'pre-commit');
    await assert.rejects(
      access.forWrite('agent:A', 's1', hook),
      (e: unknown) => e instanceof AccessDeniedError && /did not allow writing/.test(e.message) && /Git runs hooks/.test(e.message),
    );
    assert.deepEqual(asked, [{ agentId: 'agent:A', sessionId: 's1', path: hook, reason: asked[0]!.reason }]);
    answer = new Error('prompt closed');
    await assert.rejects(access.forWrite('agent:A', 's1', hook), AccessDeniedError);
    answer = true;
    assert.equal((await access.forWrite('agent:A', 's1', hook)).real, hook);
    assert.equal(asked.length, 3);
  });

  it("asks in the user's language (l10n) while the agent's refusal stays English", async () => {
    const germanAccess = new FileAccess({ roots: () => [ws], confirm: (req) => (asked.push(req), Promise.resolve(false)), l10n: german });
    const hook = path.join(ws, '.git', 'hooks', 'pre-commit');
    await assert.rejects(germanAccess.forWrite('a', 's', hook), (e: unknown) => e instanceof AccessDeniedError && /Git runs hooks/.test(e.message));
    assert.match(asked[0]!.reason, /Git führt/);
    assert.match(executesLater(ROOT, at('.vscode/tasks.json'), german)!, /VS Code führt/);
  });

  it('never asks for a normal edit, and never asks before refusing a path outside', async () => {
    answer = true;
    assert.equal((await access.forWrite('a', 's', path.join(ws, 'src', 'x.ts'))).exists, false);
    await assert.rejects(access.forWrite('a', 's', path.join(tmp, '.git', 'config')), /outside the workspace/);
    assert.equal(asked.length, 0);
  });

  (posix ? it : it.skip)('catches a sensitive place reached through a link, and a link named like one', async () => {
    fs.symlinkSync(path.join(ws, '.git', 'hooks'), path.join(ws, 'innocent'));
    await assert.rejects(access.forWrite('a', 's', path.join(ws, 'innocent', 'pre-push')), /did not allow/);
    assert.equal(asked[0]!.realPath, path.join(ws, '.git', 'hooks', 'pre-push'));
    fs.rmSync(path.join(ws, '.git', 'hooks'), { recursive: true });
    fs.symlinkSync(path.join(ws, 'tools', 'hooks'), path.join(ws, '.git', 'hooks'));
    await assert.rejects(access.forWrite('a', 's', path.join(ws, '.git', 'hooks', 'pre-commit')), /did not allow/);
    assert.equal(asked.length, 2);
  });

  it('reads never ask (containment only)', async () => {
    fs.writeFileSync(path.join(ws, '.git', 'config'), '[core]');
    assert.equal((await access.forRead('a', 's', path.join(ws, '.git', 'config'))).exists, true);
    assert.equal(asked.length, 0);
  });
});
