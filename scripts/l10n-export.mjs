#!/usr/bin/env node
// Collects every runtime message into l10n/bundle.l10n.json (`npm run l10n:export`).
//   node scripts/l10n-export.mjs          writes l10n/bundle.l10n.json: every `l10n.t('…')`,
//                                         `l10n.t({ message: '…' })` (any receiver: `vscode.l10n`,
//                                         an injected `L10n`) in src/, sorted as found; lists the
//                                         messages that each bundle.l10n.<lang>.json misses
//   node scripts/l10n-export.mjs --check  changes nothing; exits 1 when the bundle differs
// Unlike @vscode/l10n-dev, which reads only files that import 'vscode', this also reads the pure
// modules (protocol/, state/, the unit-tested helpers) that take an `L10n` argument. A message must
// be a literal (no template substitutions): a computed one could not be translated.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');

/** `…l10n.t` or `l10n.t`: the callee of a message. */
const isL10nCall = (node) =>
  ts.isCallExpression(node) &&
  ts.isPropertyAccessExpression(node.expression) &&
  node.expression.name.text === 't' &&
  /(^|\.)l10n$/.test(node.expression.expression.getText());

const literal = (node) => (node && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) ? node.text : undefined);

/** The messages of one file, and the calls whose message is not a literal (`file:line`). */
export function messagesOf(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const messages = [];
  const computed = [];
  const visit = (node) => {
    if (
      !isL10nCall(node) &&
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      node.expression.name.text === 't' &&
      literal(node.arguments[0]) !== undefined
    )
      // A message this export would not read (e.g. `(words ?? english).t('…')`): name the receiver `l10n`.
      computed.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
    if (isL10nCall(node)) {
      const [first] = node.arguments;
      let message = literal(first);
      if (message === undefined && first && ts.isObjectLiteralExpression(first)) {
        const prop = first.properties.find((p) => ts.isPropertyAssignment(p) && p.name.getText() === 'message');
        message = prop && literal(prop.initializer);
      }
      if (message === undefined) computed.push(`${file}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`);
      else messages.push(message);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { messages, computed };
}

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (/\.ts$/.test(entry.name) && !entry.name.endsWith('.d.ts')) yield full;
  }
}

/** Every message of src/, in the order found, and the computed ones. */
export function collect() {
  const bundle = {};
  const computed = [];
  for (const file of sourceFiles(path.join(ROOT, 'src'))) {
    const found = messagesOf(path.relative(ROOT, file), readFileSync(file, 'utf8'));
    for (const m of found.messages) bundle[m] = m;
    computed.push(...found.computed);
  }
  return { bundle, computed };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { bundle, computed } = collect();
  for (const where of computed) console.error(`${where}: a message must be l10n.t('literal') (a literal, on a receiver named l10n) to be exported`);
  const file = path.join(ROOT, 'l10n', 'bundle.l10n.json');
  const text = `${JSON.stringify(bundle, null, 2)}\n`;
  const old = readFileSync(file, 'utf8');
  if (check) {
    if (old !== text || computed.length) {
      console.error('l10n/bundle.l10n.json is out of date: npm run l10n:export');
      process.exit(1);
    }
  } else {
    if (old !== text) writeFileSync(file, text);
    console.log(`${Object.keys(bundle).length} messages in l10n/bundle.l10n.json`);
  }
  for (const name of readdirSync(path.join(ROOT, 'l10n')).filter((f) => /^bundle\.l10n\.[\w-]+\.json$/.test(f))) {
    const tr = JSON.parse(readFileSync(path.join(ROOT, 'l10n', name), 'utf8'));
    const missing = Object.keys(bundle).filter((k) => typeof tr[k] !== 'string');
    const extra = Object.keys(tr).filter((k) => !(k in bundle));
    if (missing.length) console.log(`${name} misses ${missing.length}:\n  ${missing.join('\n  ')}`);
    if (extra.length) console.log(`${name} has ${extra.length} no longer used:\n  ${extra.join('\n  ')}`);
  }
  if (computed.length) process.exit(1);
}
