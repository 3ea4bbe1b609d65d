// Token time limits, in a module of their own so signing (the Demo Agent) needs no zod.
/** Longest lifetime (`exp - iat`) an intent token may have. */
export const MAX_LIFETIME_SECONDS = 60 * 60;
/** Lifetime of the tokens we sign when none is given. */
export const DEFAULT_LIFETIME_SECONDS = 15 * 60;
/** Clock skew allowed when checking `exp`, `iat` and `nbf`. */
export const DEFAULT_CLOCK_SKEW_SECONDS = 60;
