// Turns what the user typed (text + @-mentioned files) into prompt content blocks, following the
// agent's prompt capabilities: files are embedded as resources when the agent accepts embedded
// context (and the file is readable text of a reasonable size), else sent as resource links.
// Images and audio go as `image` / `audio` blocks (base64 + mimeType) only when the agent accepts
// them, each within MAX_MEDIA_BYTES. Pure: reading a file is injected.
import { english, type L10n } from '../../common/l10n';
import type { ContentBlock } from '../../protocol/domain';
import type { Attachment, MediaAttachment } from './webviewMessages';

export interface PromptCapabilities {
  embeddedContext: boolean;
  image?: boolean;
  audio?: boolean;
}

/** Largest image or audio clip sent in a prompt (decoded bytes). */
export const MAX_MEDIA_BYTES = 5 * 1024 * 1024;
export const MAX_MEDIA_BASE64 = Math.ceil(MAX_MEDIA_BYTES / 3) * 4;
export const MAX_MEDIA_PER_PROMPT = 8;
/** What can be attached: the image types a webview shows, and common audio types. */
export const MEDIA_TYPES: Readonly<Record<string, 'image' | 'audio'>> = {
  'image/png': 'image',
  'image/jpeg': 'image',
  'image/gif': 'image',
  'image/webp': 'image',
  'audio/wav': 'audio',
  'audio/x-wav': 'audio',
  'audio/mpeg': 'audio',
  'audio/mp4': 'audio',
  'audio/ogg': 'audio',
  'audio/webm': 'audio',
  'audio/flac': 'audio',
};
export const MEDIA_EXTENSIONS: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  webm: 'audio/webm',
  flac: 'audio/flac',
};

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function formatMediaSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/**
 * Why a media attachment cannot be sent to this agent (one sentence saying what to do), or
 * undefined when it can. Checks the type, the agent's capability, the encoding and the size.
 */
export function mediaProblem(m: MediaAttachment, caps: PromptCapabilities | undefined, l10n: L10n = english): string | undefined {
  const kind = MEDIA_TYPES[m.mimeType.toLowerCase()];
  const name = m.name.slice(0, 200) || l10n.t('The attachment');
  if (!kind)
    return l10n.t('{0} ({1}) was not sent: only PNG, JPEG, GIF and WebP images and common audio files can be attached.', name, m.mimeType.slice(0, 100));
  if (!caps?.[kind])
    return kind === 'image'
      ? l10n.t('{0} was not sent: this agent does not accept images in prompts. Describe it in words, or use an agent that does.', name)
      : l10n.t('{0} was not sent: this agent does not accept audio in prompts. Describe it in words, or use an agent that does.', name);
  if (m.data.length > MAX_MEDIA_BASE64)
    return l10n.t('{0} was not sent: it is larger than {1}. Make it smaller and attach it again.', name, formatMediaSize(MAX_MEDIA_BYTES));
  if (!BASE64.test(m.data)) return l10n.t('{0} was not sent: its data is not valid base64. Attach the file again.', name);
  return undefined;
}

/** The image / audio blocks to send, and a sentence for each attachment that cannot be sent. */
export function mediaBlocks(
  media: readonly MediaAttachment[],
  caps: PromptCapabilities | undefined,
  l10n: L10n = english,
): { blocks: ContentBlock[]; problems: string[] } {
  const blocks: ContentBlock[] = [];
  const problems: string[] = [];
  for (const m of media.slice(0, MAX_MEDIA_PER_PROMPT)) {
    const problem = mediaProblem(m, caps, l10n);
    if (problem) {
      problems.push(problem);
      continue;
    }
    const mimeType = m.mimeType.toLowerCase();
    blocks.push(MEDIA_TYPES[mimeType] === 'image' ? { type: 'image', mimeType, data: m.data } : { type: 'audio', mimeType, data: m.data });
  }
  if (media.length > MAX_MEDIA_PER_PROMPT)
    problems.push(
      l10n.t('Only {0} images or audio clips go with one prompt; {1} more were not sent.', MAX_MEDIA_PER_PROMPT, media.length - MAX_MEDIA_PER_PROMPT),
    );
  return { blocks, problems };
}

export const MAX_EMBEDDED_CHARS = 256 * 1024;

export async function buildPromptBlocks(
  text: string,
  attachments: Attachment[],
  caps: PromptCapabilities | undefined,
  readText: (uri: string) => Promise<string | undefined>,
): Promise<ContentBlock[]> {
  // No empty text block: a prompt of attachments alone is its attachments.
  const blocks: ContentBlock[] = text.trim() ? [{ type: 'text', text }] : [];
  const seen = new Set<string>();
  for (const a of attachments) {
    if (seen.has(a.uri)) continue;
    seen.add(a.uri);
    const name = a.name.split('/').pop() || a.name;
    if (caps?.embeddedContext) {
      const content = await readText(a.uri).catch(() => undefined);
      if (content !== undefined && content.length <= MAX_EMBEDDED_CHARS) {
        blocks.push({ type: 'resource', resource: { uri: a.uri, text: content } });
        continue;
      }
    }
    blocks.push({ type: 'resource_link', uri: a.uri, name });
  }
  return blocks;
}
