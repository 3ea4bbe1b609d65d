// The transcript's budgets. Everything an agent sends is untrusted: each message, tool call, raw
// field and session has a size limit as well as the item count, so a hostile or runaway agent
// (300 chunks of 1 MB into one message, a 64 MB `rawOutput`) cannot make the extension host bloat.
//
// Sizes are counted in characters (UTF-16 code units, what `string.length` counts): a JS string
// holds one or two bytes per character, so a limit of N characters bounds memory to at most 2N
// bytes. Non-text values are counted by `approxSize` (string lengths plus a few per key/number).
import { DEFAULT_TERMINAL_MAX_CHARS } from '../terminalBuffer';

const KiB = 1024;
const MiB = 1024 * KiB;

export interface SessionLimits {
  /** Items kept per session; past it the oldest tenth is dropped. */
  maxItems: number;
  /** Characters kept per session across all items; past it the oldest items are dropped. */
  maxSessionChars: number;
  /** Characters kept per message: the head is kept, the rest dropped and counted (`truncated`). */
  maxMessageChars: number;
  /** Characters kept per tool call (content, title, raw fields): the head of its content is kept. */
  maxToolCallChars: number;
  /** Size of one raw JSON field kept (a tool call's rawInput/rawOutput, `_meta`, an unknown update). */
  maxRawChars: number;
  /** Characters kept per terminal. */
  maxTerminalChars: number;
  /** Terminals kept per session. */
  maxTerminals: number;
}

export const DEFAULT_SESSION_LIMITS: Readonly<SessionLimits> = {
  maxItems: 20_000,
  maxSessionChars: 32 * MiB,
  maxMessageChars: 1 * MiB,
  maxToolCallChars: 2 * MiB,
  maxRawChars: 64 * KiB,
  maxTerminalChars: DEFAULT_TERMINAL_MAX_CHARS,
  maxTerminals: 500,
};
