// Types of outbound-schemas.mjs for the TypeScript tests.
export type SchemaName = 'v1' | 'v1.unstable' | 'v2' | 'v2.unstable';
export type Require = 'all' | 'any';
export declare const SCHEMAS_OF: Record<1 | 2, SchemaName[]>;
export declare class SchemaSet {
  constructor(dir: string);
  lists(schema: SchemaName, method: string, sides: string[]): boolean;
  defFor(schema: SchemaName, method: string, kind: 'Request' | 'Notification' | 'Response', sides: string[]): string | undefined;
  validate(schema: SchemaName, def: string, value: unknown): string[];
}
export declare function checkSent(set: SchemaSet, message: unknown, version: 1 | 2, answered: string | undefined, require?: Require): string[];
export declare function checkInitialize(set: SchemaSet, params: Record<string, unknown>, require?: Require): string[];
export declare function isHybridInitialize(params: unknown): boolean;
