// Loads the checks of an elicitation form's answers (elicitationValues.ts) the first time an answer
// is checked: dist/elicitation-checks.js in the extension bundle (see src/common/lazy.ts).
import { lazyModule } from '../common/lazy';
import type * as Values from './elicitationValues';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously
export const formChecks = lazyModule('elicitation-checks.js', () => require('./elicitationValues') as typeof Values);
