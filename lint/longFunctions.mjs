// The functions of src/ and media/src/ allowed over the function length limit (lint/functionLength.mjs,
// `functions/max-lines` in eslint.config.mjs), by file and name, each with the reason. Only a
// table belongs here: a command table, a switch over every variant that the compiler checks for
// exhaustiveness, a schema or words literal; a function with steps is split into named helpers
// instead. An entry whose function is gone or back under the limit fails the lint, so this list
// only shrinks.

/** @type {{ file: string; name: string; reason: string }[]} */
export const LONG_FUNCTIONS = [
  {
    file: 'src/ui/conversation/webviewStrings.ts',
    name: 'webviewStrings',
    reason: "a words table: one l10n literal per line (the webview's fixed words; its type is this function's return type)",
  },
  {
    file: 'src/state/transcript/session.ts',
    name: 'SessionTranscript.apply',
    reason: 'a switch over every SessionEvent kind, exhaustive by `satisfies never`; each case one call or assignment',
  },
];
