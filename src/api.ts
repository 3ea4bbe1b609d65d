// The public, versioned API returned from activate(): read-only snapshots and change events for
// other extensions (and our tests). Bump API_VERSION on any breaking change.
export const API_VERSION = 1;

export interface AcpPlansApi {
  readonly apiVersion: number;
}
