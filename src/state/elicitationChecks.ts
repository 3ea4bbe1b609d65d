// Loads the checks of an elicitation form's answers (elicitationValues.ts) the first time an
// answer is checked. In the extension bundle they are dist/elicitation-checks.js (esbuild.mjs maps
// this `require`), so activation does not parse them; elsewhere they are bundled in place.
import type * as Values from './elicitationValues';

let values: typeof Values | undefined;

export function formChecks(): typeof Values {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously (see above)
  values ??= require('./elicitationValues') as typeof Values;
  return values;
}
