// Secret redaction for the logs and recordings, loaded the first time something is logged or
// recorded (dist/redaction.js, the `lazyModule` below): activation does not parse its patterns.
// No `vscode`.
import { lazyModule } from '../common/lazy';
import type * as Redact from './redact';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, synchronously
const mod = lazyModule('redaction.js', () => require('./redact') as typeof Redact);

/** A copy of a JSON value with secrets masked (redact.ts). */
export const redact = (value: unknown): unknown => mod().redact(value);
/** A line of text with secrets masked (redactText.ts). */
export const redactText = (s: string): string => mod().redactText(s);
/** From now on `value` is masked wherever it appears in the logs and recordings (a secret read for a connection). */
export const addKnownSecret = (value: string): void => mod().addKnownSecret(value);
