// Loads jws.ts (and with it jose) the first time an intent token is read. In the extension bundle
// jws.ts is a file of its own, dist/intent-jws.js (esbuild.mjs maps this `require` to it), so
// activation does not parse jose; elsewhere (tests, the Demo Agent) esbuild bundles it in place.
import type * as Jws from './jws';

let jws: typeof Jws | undefined;

/** The jose side of intent tokens; throws an error that says what to do when it cannot be loaded. */
export function loadJws(): typeof Jws {
  if (jws) return jws;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
    jws = require('./jws') as typeof Jws;
  } catch (err) {
    throw new Error(`The intent token checker (intent-jws.js) cannot be loaded: ${err instanceof Error ? err.message : String(err)}. Reinstall ACP Plans.`);
  }
  return jws;
}
