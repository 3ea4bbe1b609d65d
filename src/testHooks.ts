// What this extension's own integration tests reach besides the public API: the composition
// root. Set only in extension mode Test with ACP_PLANS_TEST_HOOKS=1 (see extension.ts).
import type { AcpExtension } from './root/acpExtension';

export const TEST_HOOKS_KEY = Symbol.for('acp-plans.testHooks');

export interface TestHooks {
  readonly ext: AcpExtension;
  readonly activationMs: number;
}
