// Turns what the user typed (text + @-mentioned files) into prompt content blocks, following the
// agent's prompt capabilities: files are embedded as resources when the agent accepts embedded
// context (and the file is readable text of a reasonable size), else sent as resource links.
// Pure: reading a file is injected.
import type { ContentBlock } from '../../protocol/domain';
import type { Attachment } from './webviewMessages';

export interface PromptCapabilities { embeddedContext: boolean; image?: boolean }

export const MAX_EMBEDDED_CHARS = 256 * 1024;

export async function buildPromptBlocks(
  text: string,
  attachments: Attachment[],
  caps: PromptCapabilities | undefined,
  readText: (uri: string) => Promise<string | undefined>,
): Promise<ContentBlock[]> {
  const blocks: ContentBlock[] = [{ type: 'text', text }];
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
