// Event builders for the conversation tests.
import type { ContentBlock, SessionEvent, ToolCallContent, ToolCallFields } from '../../../src/protocol/domain';

export const S = 'sess-1';
export const text = (t: string): ContentBlock => ({ type: 'text', text: t });
export const b64 = (s: string | Uint8Array): string => Buffer.from(s).toString('base64');

export const ev = {
  chunk: (messageId: string, t: string, role: 'user' | 'agent' | 'thought' = 'agent', sessionId = S): SessionEvent => ({
    sessionId,
    kind: 'message_chunk',
    role,
    messageId,
    content: text(t),
  }),
  message: (messageId: string, content: ContentBlock[] | null | undefined, role: 'user' | 'agent' | 'thought' = 'agent'): SessionEvent => ({
    sessionId: S,
    kind: 'message',
    role,
    messageId,
    content,
  }),
  tool: (toolCallId: string, fields: ToolCallFields): SessionEvent => ({ sessionId: S, kind: 'tool_call', toolCallId, fields }),
  toolChunk: (toolCallId: string, content: ToolCallContent): SessionEvent => ({ sessionId: S, kind: 'tool_call_content_chunk', toolCallId, content }),
  termUpdate: (terminalId: string, rest: Partial<Extract<SessionEvent, { kind: 'terminal_update' }>> = {}): SessionEvent => ({
    sessionId: S,
    kind: 'terminal_update',
    terminalId,
    ...rest,
  }),
  termChunk: (terminalId: string, data: string): SessionEvent => ({ sessionId: S, kind: 'terminal_output_chunk', terminalId, data }),
  state: (state: string, stopReason?: string | null): SessionEvent => ({ sessionId: S, kind: 'state', state, stopReason }),
};
