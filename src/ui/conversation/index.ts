// The conversation view: what the rest of the extension uses.
export { Conversation, type ConversationOptions, type PromptSubmission } from './conversation';
export { ConversationHost } from './host';
export type { PromptCapabilities } from './promptBlocks';
export type { Attachment, DomSnapshot, WebviewCounters } from './webviewMessages';
export type { PumpStats } from './pump';
