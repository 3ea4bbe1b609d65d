// The v1 adapter (work in progress: the implementation lands shortly).
import type { VersionAdapter } from '../adapter';

export function createV1Adapter(): VersionAdapter {
  throw new Error('v1 adapter not implemented yet');
}
