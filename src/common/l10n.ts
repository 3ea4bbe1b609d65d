// Translation for pure functions (the ones unit tests run without VS Code): they take an `L10n`,
// which is `vscode.l10n` in the product and `english` by default. Messages use `{0}` placeholders,
// never concatenation, so a translation can reorder them; `npm run l10n:export`
// (scripts/l10n-export.mjs) collects every `l10n.t('…')` call of src/, these pure modules
// included, into l10n/bundle.l10n.json.

export type L10nArg = string | number | boolean;

/** The shape of `vscode.l10n.t` (so `vscode.l10n` is an `L10n` and `english` can stand in for it). */
export interface L10n {
  t(message: string, ...args: L10nArg[]): string;
  t(message: string, args: Record<string, unknown>): string;
  t(options: { message: string; args?: L10nArg[] | Record<string, unknown>; comment: string | string[] }): string;
}

/** The English text with its placeholders filled in (what `vscode.l10n.t` does without a translation). */
export const english: L10n = {
  t(first: string | { message: string; args?: L10nArg[] | Record<string, unknown> }, ...rest: unknown[]): string {
    const message = typeof first === 'string' ? first : first.message;
    const args = (typeof first === 'string' ? (rest.length === 1 && typeof rest[0] === 'object' ? rest[0] : rest) : (first.args ?? [])) as Record<
      string,
      unknown
    >;
    return message.replace(/\{([^}]+)\}/g, (whole, k: string) => (k in args ? String(args[k]) : whole));
  },
};
