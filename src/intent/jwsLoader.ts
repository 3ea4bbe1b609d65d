// Loads jws.ts (and with it jose) the first time an intent token is read: dist/intent-jws.js in
// the extension bundle (see src/common/lazy.ts), so activation does not parse jose.
import { lazyModule } from '../common/lazy';
import type * as Jws from './jws';

/** The jose side of intent tokens; throws an error that says what to do when it cannot be loaded. */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously
export const loadJws = lazyModule('intent-jws.js', () => require('./jws') as typeof Jws);
