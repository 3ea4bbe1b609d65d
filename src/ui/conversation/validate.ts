// Validation of what the webview posts. The webview renders untrusted agent text (without
// scripts, under a strict CSP), but its messages are still checked before anything acts on them.
import * as z from 'zod';
import type { FromWebview } from './webviewMessages';

const id = z.string().min(1).max(1000);
const attachment = z.object({ uri: z.string().min(1).max(10_000), name: z.string().max(10_000) });

const schema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('submit'), sessionId: id.nullable(), text: z.string().max(1_000_000), attachments: z.array(attachment).max(100) }),
  z.object({ type: z.literal('cancel'), sessionId: id }),
  z.object({ type: z.literal('permission'), sessionId: id, requestId: id, optionId: id, option: z.number().int().min(0).max(999) }),
  z.object({ type: z.literal('setConfig'), sessionId: id, configId: id, value: z.union([z.string().max(10_000), z.boolean()]) }),
  z.object({ type: z.literal('removeQueued'), sessionId: id, id }),
  z.object({ type: z.literal('openLocation'), path: z.string().min(1).max(10_000), line: z.number().int().min(0).nullable() }),
  z.object({ type: z.literal('openDiff'), sessionId: id, itemId: id, index: z.number().int().min(0), file: z.number().int().min(0) }),
  z.object({ type: z.literal('openLink'), href: z.string().min(1).max(10_000) }),
  z.object({ type: z.literal('mentionQuery'), reqId: z.number().int(), query: z.string().max(1000) }),
  z.object({ type: z.literal('loadEarlier'), sessionId: id, before: z.number().int().min(0), count: z.number().int().min(1).max(1000) }),
  z.object({ type: z.literal('inspectResult'), reqId: z.number().int(), snapshot: z.looseObject({}) }),
  z.object({ type: z.literal('error'), message: z.string().max(100_000) }),
]);

/** The message as a `FromWebview`, or undefined when it is not one. */
export function parseFromWebview(msg: unknown): FromWebview | undefined {
  const r = schema.safeParse(msg);
  return r.success ? (r.data as FromWebview) : undefined;
}
