// Errors recognised across the extension's bundles. A part loaded on first use (lazy.ts) is a
// bundle of its own, with its own copy of every class it imports, so `err instanceof X` would be
// false for an X made on the other side. A class whose instances cross that line carries a brand (a
// global symbol) and its `static [Symbol.hasInstance]` checks the brand. No `vscode`.

/** True when `value` carries `brand`: what a branded class's `static [Symbol.hasInstance]` returns. */
export function hasBrand(value: unknown, brand: symbol): boolean {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
