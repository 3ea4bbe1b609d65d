// Settings a repository can set: a cloned repository's `.vscode/settings.json` is workspace
// content, so a setting that names a path, a command, a URL, an executable or environment
// variables (where files are written, what runs, where we connect) must be `machine` scoped (VS
// Code then ignores a workspace's value), or `machine-overridable` only with a reason listed here.
// Every setting in package.json is in the audit below with its scope and why, and docs/SECURITY.md
// ("Settings a workspace can set") lists the same scopes. The code reads settings only through
// `getConfiguration('acp')` (`get` honours the scope) and never takes a workspace's value itself.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const root = path.resolve(__dirname, '../../../..');
type Schema = { scope?: string; markdownDescription?: string; description?: string; [k: string]: unknown };
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Schema> } };
  capabilities: { untrustedWorkspaces: { restrictedConfigurations?: string[] } };
};
const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const settings = pkg.contributes.configuration.properties;

/** `machine-overridable` settings and why a workspace may override them (none today). */
const MACHINE_OVERRIDABLE: Record<string, string> = {};

/** Schema keys that name something that runs or a place: an entry holding one names it. */
const NAMING_KEYS = new Set(['command', 'args', 'env', 'url', 'headers', 'cwd', 'path', 'executable']);
/** Words of a description (or of the setting's own name) that say the value is a place, a program or an address. */
const NAMING_WORDS = /\b(paths?|folders?|director(?:y|ies)|locations?|urls?|https?|commands?|executables?|programs?|environment|env|JWKS file)\b/i;

/** The English text of a description (`%key%` from package.nls.json). */
const text = (s: unknown): string => (typeof s === 'string' ? s.replace(/^%(.+)%$/, (_, k: string) => nls[k] ?? '') : '');

/** Whether a value of `schema` can hold free text (a string that is not one of an `enum`) anywhere. */
function freeText(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(freeText);
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as Schema;
  const types = ([] as unknown[]).concat(s['type'] ?? []);
  if (types.includes('string') && !s['enum']) return true;
  return ['items', 'additionalProperties', 'anyOf', 'oneOf'].some((k) => freeText(s[k])) || Object.values((s['properties'] ?? {}) as object).some(freeText);
}

/** Whether a schema's keys, formats or words say it names something that runs or a place. */
function saysItNames(schema: unknown, key = ''): boolean {
  if (Array.isArray(schema)) return schema.some((s) => saysItNames(s));
  if (!schema || typeof schema !== 'object') return false;
  const s = schema as Schema;
  if (NAMING_KEYS.has(key) || s['format'] === 'uri' || s['format'] === 'uri-reference') return true;
  if (NAMING_WORDS.test(`${text(s.markdownDescription)} ${text(s.description)}`)) return true;
  return Object.entries(s).some(([k, v]) => (k === 'properties' ? Object.entries(v as object).some(([pk, pv]) => saysItNames(pv, pk)) : saysItNames(v)));
}

/**
 * Whether setting `key` names a path, command, URL, executable or environment: its value can hold
 * free text (a switch, a number or a choice of fixed words names nothing) and its name, schema or
 * description says what that text is.
 */
function namesSomething(key: string, schema: Schema): boolean {
  return freeText(schema) && (NAMING_WORDS.test(key.split('.').pop()!) || saysItNames(schema));
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

describe('Settings a workspace can set (package.json scopes)', () => {
  it('every setting that names a path, command, URL, executable or environment is machine-scoped', () => {
    const wrong: string[] = [];
    for (const [key, schema] of Object.entries(settings)) {
      if (!namesSomething(key, schema)) continue;
      if (schema.scope === 'machine' || schema.scope === 'application') continue;
      if (schema.scope === 'machine-overridable' && MACHINE_OVERRIDABLE[key]) continue;
      wrong.push(`${key}: ${schema.scope ?? '(no scope: window)'}`);
    }
    assert.deepEqual(wrong, [], 'a workspace could choose where files go or what runs');
  });

  it('every such setting is also restricted in untrusted workspaces, whatever its scope (capabilities.untrustedWorkspaces)', () => {
    // Twice held: were its scope ever widened, Restricted Mode would still ignore a workspace's value.
    const restricted = pkg.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    const missing = Object.entries(settings)
      .filter(([key, schema]) => namesSomething(key, schema) && !restricted.includes(key))
      .map(([key]) => key);
    assert.deepEqual(missing, [], 'a setting that chooses where files go or what runs is not in restrictedConfigurations');
    assert.deepEqual(
      restricted.filter((k) => !settings[k]),
      [],
      'restrictedConfigurations names settings package.json does not contribute',
    );
  });

  it('finds what it looks for (the rule is not vacuous)', () => {
    for (const key of ['acp.agents', 'acp.mcpServers', 'acp.registry.url', 'acp.registry.agentOverrides', 'acp.intent.jwks', 'acp.worktrees.location'])
      assert.equal(namesSomething(key, settings[key]!), true, key);
    for (const key of ['acp.plans.foldDoneStepsAfter', 'acp.checkpoints.enabled', 'acp.notifications.whenUnfocused', 'acp.conversation.cardRoom'])
      assert.equal(namesSomething(key, settings[key]!), false, key);
  });

  it('every setting has an explicit scope, and docs/SECURITY.md lists each with that scope', () => {
    const doc = fs.readFileSync(path.join(root, 'docs/SECURITY.md'), 'utf8');
    const start = doc.indexOf('<!-- settings:start -->');
    const end = doc.indexOf('<!-- settings:end -->');
    assert.ok(start >= 0 && end > start, 'docs/SECURITY.md has the settings audit between <!-- settings:start --> and <!-- settings:end -->');
    const listed = new Map<string, string>();
    for (const m of doc.slice(start, end).matchAll(/^\| `(acp\.[^`]+)` \| `([a-z-]+)` \|/gm)) listed.set(m[1]!, m[2]!);
    for (const [key, schema] of Object.entries(settings)) {
      assert.ok(schema.scope, `${key} has no scope`);
      assert.equal(listed.get(key), schema.scope, `${key}: docs/SECURITY.md says ${listed.get(key) ?? 'nothing'}, package.json ${schema.scope}`);
    }
    assert.deepEqual(
      [...listed.keys()].filter((k) => !settings[k]),
      [],
      'docs/SECURITY.md lists settings package.json does not have',
    );
  });

  it('the code reads settings only through getConfiguration("acp") and never takes a workspace value itself', () => {
    const problems: string[] = [];
    for (const file of sourceFiles(path.join(root, 'src'))) {
      const rel = path.relative(root, file);
      const src = fs.readFileSync(file, 'utf8');
      for (const m of src.matchAll(/getConfiguration\(([^)]*)\)/g)) if (!/^'acp'(,|$)/.test(m[1]!.trim())) problems.push(`${rel}: getConfiguration(${m[1]})`);
      // The trace level's reader declares the fields to ignore them (src/platform/traceLevel.ts).
      if (rel !== path.join('src', 'platform', 'traceLevel.ts') && /\b(workspaceValue|workspaceFolderValue)\b/.test(src))
        problems.push(`${rel}: reads a workspace value`);
      if (/['"`][^'"`]*\.vscode\/settings\.json/.test(src)) problems.push(`${rel}: reads .vscode/settings.json`);
    }
    assert.deepEqual(problems, []);
  });
});
