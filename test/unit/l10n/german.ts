// An `L10n` that reads l10n/bundle.l10n.de.json, as `vscode.l10n` does in a German VS Code: for
// unit tests of the pure modules that take an `L10n`. A message missing from the bundle fails the
// test (rather than falling back to English unseen).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { english, type L10n, type L10nArg } from '../../../src/common/l10n';

const file = path.resolve(__dirname, '../../../../l10n/bundle.l10n.de.json');
const bundle = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, string>;

export const german: L10n = {
  t(first: string | { message: string; args?: L10nArg[] | Record<string, unknown> }, ...rest: unknown[]): string {
    const message = typeof first === 'string' ? first : first.message;
    const text = bundle[message];
    if (text === undefined) throw new Error(`no German for "${message}"`);
    if (typeof first === 'string') return (english.t as (m: string, ...a: unknown[]) => string)(text, ...rest);
    return english.t({ ...first, message: text, comment: '' });
  },
};
