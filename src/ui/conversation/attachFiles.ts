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
  if (kinds.length === 0)
    return { items: [], problems: [vscode.l10n.t('This agent does not accept images or audio in prompts (its prompt capabilities say so).')] };
  const exts = Object.keys(MEDIA_EXTENSIONS).filter((e) => kinds.includes(MEDIA_TYPES[MEDIA_EXTENSIONS[e]!]!));
  const both = kinds.length === 2;
  const image = kinds[0] === 'image';
  const uris = await vscode.window.showOpenDialog({
    canSelectMany: true,
    openLabel: vscode.l10n.t('Attach'),
    filters: { [both ? vscode.l10n.t('Images and Audio') : image ? vscode.l10n.t('Images') : vscode.l10n.t('Audio')]: exts },
  });
  const items: MediaAttachment[] = [];
  const problems: string[] = [];
  for (const uri of (uris ?? []).slice(0, MAX_MEDIA_PER_PROMPT)) {
    const name = path.basename(uri.fsPath);
    const mimeType = MEDIA_EXTENSIONS[path.extname(name).slice(1).toLowerCase()];
    if (!mimeType || !kinds.includes(MEDIA_TYPES[mimeType]!)) {
      problems.push(
        both
          ? vscode.l10n.t('{0} was not attached: this agent accepts only images and audio.', name)
          : image
            ? vscode.l10n.t('{0} was not attached: this agent accepts only images.', name)
            : vscode.l10n.t('{0} was not attached: this agent accepts only audio.', name),
      );
      continue;
    }
    try {
      const size = (await vscode.workspace.fs.stat(uri)).size;
      if (size > MAX_MEDIA_BYTES) {
        problems.push(
          vscode.l10n.t(
            '{0} was not attached: it is {1}, larger than {2}. Make it smaller and attach it again.',
            name,
            formatMediaSize(size),
            formatMediaSize(MAX_MEDIA_BYTES),
          ),
        );
        continue;
      }
      items.push({ name, mimeType, data: Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('base64') });
    } catch (err) {
      problems.push(vscode.l10n.t('{0} could not be read ({1}).', name, err instanceof Error ? err.message : String(err)));
    }
  }
  if ((uris?.length ?? 0) > MAX_MEDIA_PER_PROMPT) problems.push(vscode.l10n.t('Only {0} files go with one prompt.', MAX_MEDIA_PER_PROMPT));
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
