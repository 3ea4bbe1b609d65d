// Item ids: stable strings a view can keep (one per message per role, per tool call, per request).
import type { Role } from './model';

export const messageItemId = (role: Role, messageId: string): string => `m:${role}:${messageId}`;
export const toolCallItemId = (toolCallId: string): string => `t:${toolCallId}`;
export const permissionItemId = (requestId: string): string => `p:${requestId}`;
export const elicitationItemId = (requestId: string): string => `e:${requestId}`;
export const compactionItemId = (compactionId: string): string => `c:${compactionId}`;
