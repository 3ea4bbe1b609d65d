// Why a prompt waits in the queue although the user asked to steer it into the running turn. A
// typed reason: the conversation words it beside the queued prompt.

export type QueueNote =
  /** The agent did not take it (`reason` as the agent, or the error, gave it; it is untrusted text). */
  | { readonly code: 'steerFailed'; readonly reason?: string }
  /** The turn had ended before it arrived: it is sent as the next prompt. */
  | { readonly code: 'steerPromptRequired' }
  /** The agent answered in a way this client does not know, so it is sent after the turn. */
  | { readonly code: 'steerUnknown' };
