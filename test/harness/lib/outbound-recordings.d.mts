// Types of outbound-recordings.mjs for the TypeScript tests.
import type { Require, SchemaSet } from './outbound-schemas.mjs';

export interface WireLine { line: number; dir: 'send' | 'receive'; msg: unknown }
export interface Parsed { header: Record<string, unknown> | undefined; lines: WireLine[]; bad: { line: number; problem: string }[] }
export interface Failure { line: number; method: string; problems: string[] }
export interface Report {
  connections: number; skipped: number; messages: number; byVersion: Record<1 | 2, number>;
  failures: (Failure & { file: string })[];
}
export declare function parseRecording(text: string): Parsed;
export declare function negotiatedVersion(lines: WireLine[]): { version: 1 | 2 | undefined; offered: 1 | 2 | undefined };
export declare function checkRecording(set: SchemaSet, parsed: Parsed, require?: Require): { version: 1 | 2; negotiated: boolean; checked: number; failures: Failure[] };
export declare function checkRecordingDir(dir: string, options: { schemasDir: string; since?: number; require?: Require }): Report;
export declare function formatReport(report: Report, prefix: string): string[];
