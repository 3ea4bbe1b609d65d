// What the conversation needs only once a view or panel is open: the webview host (view model,
// deltas, message checks) and what the webview's messages ask for (prompt blocks, attachments,
// diffs, links, @-mention search). In the extension bundle this is dist/conversation-view.js,
// loaded when a conversation view or panel first opens (see conversation.ts).
export { ConversationHost, webviewOptions } from './host';
export { openLink, openLocation } from './actions';
export { DiffDocuments } from './diffDocuments';
export { WorkspaceFiles } from './mentions';
export { buildPromptBlocks, MAX_EMBEDDED_CHARS, mediaBlocks } from './promptBlocks';
export { confirmOutside, pickMedia } from './attachFiles';
export { cardRoomChoice, offerEditor } from './cardRoom';
