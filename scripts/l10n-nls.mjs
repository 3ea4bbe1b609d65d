#!/usr/bin/env node
// Externalizes the user-facing text of package.json into package.nls.json (`npm run l10n:nls`).
//   node scripts/l10n-nls.mjs          moves every literal left in a user-facing field of
//                                      package.json into package.nls.json under a stable key and
//                                      writes `%key%` in its place; lists the keys that
//                                      package.nls.<lang>.json files still miss
//   node scripts/l10n-nls.mjs --check  changes nothing; exits 1 when a literal is left
// Keys name where the text is used (`commands.acp.startAgent.title`,
// `settings.acp.trace.server.enumDescriptions.off`), so adding a command or a setting adds keys
// and changes none of the others.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

/** Fields whose string values users read. */
const TEXT_FIELDS = new Set([
  'title',
  'shortTitle',
  'category',
  'contextualTitle',
  'contents',
  'description',
  'markdownDescription',
  'deprecationMessage',
  'markdownDeprecationMessage',
  'errorMessage',
  'patternErrorMessage',
  'label',
  'altText',
]);
/** Arrays of user-facing strings, one per `enum` value. */
const ENUM_TEXT_FIELDS = new Set(['enumDescriptions', 'markdownEnumDescriptions', 'enumItemLabels']);
/** Values that are data, not text, even under a text field's name. */
const DATA_FIELDS = new Set(['default', 'enum', 'examples', 'when', 'pattern', 'required', 'completionEvents', 'media', 'icon']);

const isKey = (value) => /^%[\w.-]+%$/.test(value);

/**
 * Every user-facing string of the manifest: `{ holder, field, index?, key, value }`, where
 * `holder[field]` (or `holder[field][index]`) holds `value`.
 */
export function textFields(pkg) {
  const found = [];
  const add = (holder, field, key, index) => {
    const value = index === undefined ? holder[field] : holder[field][index];
    if (typeof value === 'string' && value !== '') found.push({ holder, field, index, key, value });
  };
  add(pkg, 'displayName', 'displayName');
  add(pkg, 'description', 'description');
  const untrusted = pkg.capabilities?.untrustedWorkspaces;
  if (untrusted) add(untrusted, 'description', 'capabilities.untrustedWorkspaces.description');
  const c = pkg.contributes ?? {};
  for (const [place, containers] of Object.entries(c.viewsContainers ?? {})) {
    for (const v of containers) add(v, 'title', `viewsContainers.${place}.${v.id}.title`);
  }
  for (const views of Object.values(c.views ?? {})) {
    for (const v of views) {
      for (const field of ['name', 'contextualTitle']) add(v, field, `views.${v.id}.${field}`);
    }
  }
  const welcomeCount = new Map();
  for (const w of c.viewsWelcome ?? []) {
    const n = welcomeCount.get(w.view) ?? 0;
    welcomeCount.set(w.view, n + 1);
    add(w, 'contents', `viewsWelcome.${w.view}.${n}`);
  }
  for (const w of c.walkthroughs ?? []) {
    for (const field of ['title', 'description']) add(w, field, `walkthroughs.${w.id}.${field}`);
    for (const s of w.steps ?? []) {
      for (const field of ['title', 'description']) add(s, field, `walkthroughs.${w.id}.steps.${s.id}.${field}`);
      if (s.media) add(s.media, 'altText', `walkthroughs.${w.id}.steps.${s.id}.altText`);
    }
  }
  for (const cmd of c.commands ?? []) {
    for (const field of ['title', 'shortTitle']) add(cmd, field, `commands.${cmd.command}.${field}`);
    if (typeof cmd.category === 'string') add(cmd, 'category', `category.${cmd.category.replace(/[^\w.-]+/g, '-')}`);
  }
  for (const s of c.submenus ?? []) add(s, 'label', `submenus.${s.id}.label`);
  const configurations = Array.isArray(c.configuration) ? c.configuration : c.configuration ? [c.configuration] : [];
  configurations.forEach((conf, i) => {
    add(conf, 'title', configurations.length === 1 ? 'configuration.title' : `configuration.${conf.id ?? i}.title`);
    for (const [name, schema] of Object.entries(conf.properties ?? {})) schemaText(schema, `settings.${name}`, add);
  });
  return found;
}

/** The text of one setting's JSON schema, nested item and property schemas included. */
function schemaText(schema, key, add) {
  if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
  for (const [field, value] of Object.entries(schema)) {
    if (DATA_FIELDS.has(field)) continue;
    if (TEXT_FIELDS.has(field) && typeof value === 'string') add(schema, field, `${key}.${field}`);
    else if (ENUM_TEXT_FIELDS.has(field) && Array.isArray(value)) {
      value.forEach((_, i) => {
        const enumValue = Array.isArray(schema.enum) ? schema.enum[i] : undefined;
        add(schema, field, `${key}.${field}.${enumValue ?? i}`, i);
      });
    } else if (field === 'properties' && value && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value)) schemaText(sub, `${key}.${name}`, add);
    } else if (field === 'items' || field === 'additionalProperties') schemaText(value, `${key}.${field}`, add);
    else if ((field === 'anyOf' || field === 'oneOf' || field === 'allOf') && Array.isArray(value)) {
      value.forEach((sub, i) => schemaText(sub, `${key}.${field}.${i}`, add));
    }
  }
}

function readJson(file) {
  return JSON.parse(readFileSync(path.join(ROOT, file), 'utf8'));
}
function writeJson(file, value) {
  writeFileSync(path.join(ROOT, file), `${JSON.stringify(value, null, 2)}\n`);
}

function main() {
  const pkg = readJson('package.json');
  const nls = readJson('package.nls.json');
  const literals = textFields(pkg).filter((t) => !isKey(t.value));
  if (check) {
    for (const t of literals) console.error(`package.json: "${t.value.slice(0, 60)}" is not in package.nls.json (${t.key}): run npm run l10n:nls`);
    process.exit(literals.length ? 1 : 0);
  }
  for (const t of literals) {
    if (nls[t.key] !== undefined && nls[t.key] !== t.value && !t.key.startsWith('category.')) {
      console.log(`changed: ${t.key} (its translations need an update)`);
    }
    nls[t.key] = t.value;
    if (t.index === undefined) t.holder[t.field] = `%${t.key}%`;
    else t.holder[t.field][t.index] = `%${t.key}%`;
  }
  writeJson('package.nls.json', nls);
  writeJson('package.json', pkg);
  console.log(`package.json: ${literals.length} text(s) moved to package.nls.json`);
  for (const file of readdirSync(ROOT).filter((f) => /^package\.nls\.[\w-]+\.json$/.test(f))) {
    const translated = readJson(file);
    const missing = Object.keys(nls).filter((k) => !(k in translated));
    if (missing.length) console.log(`${file} misses ${missing.length} key(s): ${missing.join(', ')}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
