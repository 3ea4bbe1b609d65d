// The v2 adapter (work in progress: the implementation lands shortly).
import type { VersionAdapter } from '../adapter';

export function createV2Adapter(): VersionAdapter {
  throw new Error('v2 adapter not implemented yet');
}
