// Validation of what the webview posts. The webview renders untrusted agent text (without
// scripts, under a strict CSP), but its messages are still checked before anything acts on them.
import * as z from 'zod/mini';
import '../../protocol/common/zodMessages';
import type { FromWebview } from './webviewMessages';
import { MAX_MEDIA_BASE64, MAX_MEDIA_PER_PROMPT } from './promptBlocks';

const id = z.string().check(z.minLength(1), z.maxLength(1000));
const attachment = z.object({ uri: z.string().check(z.minLength(1), z.maxLength(10_000)), name: z.string().check(z.maxLength(10_000)) });

const media = z.object({
  name: z.string().check(z.maxLength(1000)),
  mimeType: z.string().check(z.minLength(1), z.maxLength(100)),
  data: z.string().check(z.maxLength(MAX_MEDIA_BASE64)),
});

const schema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  z.object({ type: z.literal('applied'), seq: z.number().check(z.int(), z.gte(0)) }),
  z.object({
    type: z.literal('submit'),
    sessionId: z.nullable(id),
    text: z.string().check(z.maxLength(1_000_000)),
    attachments: z.array(attachment).check(z.maxLength(100)),
    media: z.optional(z.array(media).check(z.maxLength(MAX_MEDIA_PER_PROMPT))),
    steer: z.optional(z.boolean()),
  }),
  z.object({ type: z.literal('pickMedia'), sessionId: z.nullable(id) }),
  z.object({ type: z.literal('cancel'), sessionId: id }),
  z.object({ type: z.literal('permission'), sessionId: id, requestId: id, optionId: id, option: z.number().check(z.int(), z.gte(0), z.lte(999)) }),
  z.object({
    type: z.literal('elicitation'),
    sessionId: id,
    requestId: id,
    action: z.enum(['accept', 'decline', 'cancel']),
    values: z.optional(
      z
        .record(
          z.string().check(z.maxLength(1000)),
          z.union([z.string().check(z.maxLength(100_000)), z.boolean(), z.array(z.string().check(z.maxLength(10_000))).check(z.maxLength(1000))]),
        )
        .check(z.refine((v) => Object.keys(v).length <= 100, 'too many values (a form has at most 32 fields)')),
    ),
  }),
  z.object({ type: z.literal('setConfig'), sessionId: id, configId: id, value: z.union([z.string().check(z.maxLength(10_000)), z.boolean()]) }),
  z.object({ type: z.literal('removeQueued'), sessionId: id, id }),
  z.object({
    type: z.literal('openLocation'),
    path: z.string().check(z.minLength(1), z.maxLength(10_000)),
    line: z.nullable(z.number().check(z.int(), z.gte(0))),
  }),
  z.object({ type: z.literal('openDiff'), sessionId: id, itemId: id, index: z.number().check(z.int(), z.gte(0)), file: z.number().check(z.int(), z.gte(0)) }),
  z.object({ type: z.literal('openLink'), href: z.string().check(z.minLength(1), z.maxLength(10_000)) }),
  z.object({ type: z.literal('mentionQuery'), reqId: z.number().check(z.int()), query: z.string().check(z.maxLength(1000)) }),
  z.object({
    type: z.literal('loadEarlier'),
    sessionId: id,
    before: z.number().check(z.int(), z.gte(0)),
    count: z.number().check(z.int(), z.gte(1), z.lte(1000)),
  }),
  z.object({ type: z.literal('inspectResult'), reqId: z.number().check(z.int()), snapshot: z.looseObject({}) }),
  z.object({ type: z.literal('clearFilter') }),
  z.object({ type: z.literal('cramped'), needed: z.number().check(z.int(), z.gte(0)), available: z.number().check(z.int(), z.gte(0)) }),
  z.object({ type: z.literal('error'), message: z.string().check(z.maxLength(100_000)) }),
]);

/** The message as a `FromWebview`, or undefined when it is not one. */
export function parseFromWebview(msg: unknown): FromWebview | undefined {
  const r = schema.safeParse(msg);
  return r.success ? (r.data as FromWebview) : undefined;
}
