// Loads the consent rules (permissionRules.ts with src/agents/consent: what an "always allow"
// covers, how options are presented) the first time a permission request arrives or a stored
// rule is read: dist/consent.js in the extension bundle (see src/common/lazy.ts).
import { lazyModule } from '../common/lazy';
import type * as Rules from './permissionRules';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously
export const consentRules = lazyModule('consent.js', () => require('./permissionRules') as typeof Rules);
