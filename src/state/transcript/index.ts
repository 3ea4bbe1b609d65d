// The transcript store's public face: the store (`Transcript`), one session's transcript, the
// item model and the item ids. Code outside this folder imports from here only.
export * from './model';
export { Transcript, type TranscriptOptions } from './transcript';
export { MODE_SWITCH_KIND, planInInput, SessionTranscript } from './session';
export { messageItemId, toolCallItemId, permissionItemId, elicitationItemId, compactionItemId } from './ids';
export { DEFAULT_SESSION_LIMITS, type SessionLimits } from './limits';
export type { TerminalExitStatus } from '../terminalBuffer';
