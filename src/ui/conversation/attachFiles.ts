// The VS Code side of prompt attachments: the "Attach…" file picker for images and audio (read,
// typed by extension, size-checked before reading) and the question before a file outside the
// workspace is sent as a link (its content is never read or embedded).
import * as path from 'path';
import * as vscode from 'vscode';
import { formatMediaSize, MAX_MEDIA_BYTES, MAX_MEDIA_PER_PROMPT, MEDIA_EXTENSIONS, MEDIA_TYPES, type PromptCapabilities } from './promptBlocks';
import type { Attachment, MediaAttachment } from './webviewMessages';

/** Shows a picker for the kinds the agent accepts; returns the files read and what was refused. */
export async function pickMedia(caps: PromptCapabilities | undefined): Promise<{ items: MediaAttachment[]; problems: string[] }> {
  const kinds = (['image', 'audio'] as const).filter((k) => caps?.[k]);
  if (kinds.length === 0) return { items: [], problems: ['This agent does not accept images or audio in prompts (its prompt capabilities say so).'] };
  const exts = Object.keys(MEDIA_EXTENSIONS).filter((e) => kinds.includes(MEDIA_TYPES[MEDIA_EXTENSIONS[e]!]!));
  const uris = await vscode.window.showOpenDialog({
    canSelectMany: true,
    openLabel: 'Attach',
    filters: { [kinds.map((k) => (k === 'image' ? 'Images' : 'Audio')).join(' and ')]: exts },
  });
  const items: MediaAttachment[] = [];
  const problems: string[] = [];
  for (const uri of (uris ?? []).slice(0, MAX_MEDIA_PER_PROMPT)) {
    const name = path.basename(uri.fsPath);
    const mimeType = MEDIA_EXTENSIONS[path.extname(name).slice(1).toLowerCase()];
    if (!mimeType || !kinds.includes(MEDIA_TYPES[mimeType]!)) {
      problems.push(`${name} was not attached: this agent accepts only ${kinds.join(' and ')}.`);
      continue;
    }
    try {
      const size = (await vscode.workspace.fs.stat(uri)).size;
      if (size > MAX_MEDIA_BYTES) {
        problems.push(
          `${name} was not attached: it is ${formatMediaSize(size)}, larger than ${formatMediaSize(MAX_MEDIA_BYTES)}. Make it smaller and attach it again.`,
        );
        continue;
      }
      items.push({ name, mimeType, data: Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('base64') });
    } catch (err) {
      problems.push(`${name} could not be read (${err instanceof Error ? err.message : String(err)}).`);
    }
  }
  if ((uris?.length ?? 0) > MAX_MEDIA_PER_PROMPT) problems.push(`Only ${MAX_MEDIA_PER_PROMPT} files go with one prompt.`);
  return { items, problems };
}

/** Whether a file attachment lies inside one of the workspace folders. */
export function insideWorkspace(a: Attachment): boolean {
  try {
    return vscode.workspace.getWorkspaceFolder(vscode.Uri.parse(a.uri, true)) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Attachments outside the workspace are sent (as links only) after the user agrees; returns the
 * attachments to send and those to send as links only.
 */
export async function confirmOutside(attachments: Attachment[]): Promise<{ keep: Attachment[]; linkOnly: Set<string> }> {
  const outside = attachments.filter((a) => !insideWorkspace(a));
  if (outside.length === 0) return { keep: attachments, linkOnly: new Set() };
  const list = outside
    .slice(0, 10)
    .map((a) => a.uri)
    .join('\n');
  const send = vscode.l10n.t('Send as Link');
  const answer = await vscode.window.showWarningMessage(
    outside.length === 1
      ? vscode.l10n.t('Send a link to a file outside the workspace?')
      : vscode.l10n.t('Send links to {0} files outside the workspace?', outside.length),
    { modal: true, detail: vscode.l10n.t('The agent gets the location only (not the content) and may try to read it:\n{0}', list) },
    send,
  );
  if (answer !== send) return { keep: attachments.filter((a) => !outside.includes(a)), linkOnly: new Set() };
  return { keep: attachments, linkOnly: new Set(outside.map((a) => a.uri)) };
}
