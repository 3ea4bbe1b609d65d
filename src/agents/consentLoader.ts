// Loads the consent rules (permissionRules.ts with src/agents/consent: what an "always allow"
// covers, how options are presented) the first time a permission request arrives or a stored
// rule is read. In the extension bundle they are a file of their own, dist/consent.js (esbuild.mjs
// maps this `require`), so activation does not parse them; elsewhere they are bundled in place.
import type * as Rules from './permissionRules';

let rules: typeof Rules | undefined;

export function consentRules(): typeof Rules {
  if (rules) return rules;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
    rules = require('./permissionRules') as typeof Rules;
  } catch (err) {
    throw new Error(`The permission rules (consent.js) cannot be loaded: ${err instanceof Error ? err.message : String(err)}. Reinstall ACP Plans.`);
  }
  return rules;
}
