// The fake model's answer to a compaction request: the summary both agents keep of the dropped
// context (Claude's wrapped in `<summary>` tags, which its adapter strips).
export const SUMMARY_TEXT = 'The user set up the interop workspace and asked for nothing else yet.';
