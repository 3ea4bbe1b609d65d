// Types of lint/longFunctions.mjs for the TypeScript tests that read it.
export interface LongFunction {
  file: string;
  name: string;
  reason: string;
}
export const LONG_FUNCTIONS: LongFunction[];
