// Images and audio attached to the next prompt: pasted, dropped or picked ("Attach…", a file
// picker in the extension). Only the kinds the agent accepts (its prompt capabilities); each file
// is size-checked before it is read; refusals are said in the tray, one sentence each.
import type { MediaAttachment } from '../../src/ui/conversation/webviewMessages';
import { formatMediaSize, MAX_MEDIA_BYTES, MAX_MEDIA_PER_PROMPT, MEDIA_TYPES } from '../../src/ui/conversation/promptBlocks';
import { h } from './dom';
import { S, fill } from './strings';

export class MediaTray {
  readonly el = h('div', { class: 'media-tray' });
  private items: MediaAttachment[] = [];
  private problems: string[] = [];
  /** Files being read (paste or drop), counted against the per-prompt limit. */
  private reading = 0;
  private accepts = { image: false, audio: false };

  setAccepts(accepts: { image: boolean; audio: boolean }): void {
    this.accepts = accepts;
  }
  get acceptsAny(): boolean {
    return this.accepts.image || this.accepts.audio;
  }
  get count(): number {
    return this.items.length;
  }

  /** Takes the attachments for a prompt and empties the tray. */
  take(): MediaAttachment[] {
    const items = this.items;
    this.items = [];
    this.problems = [];
    this.render();
    return items;
  }

  /** Files from a paste or a drop; returns whether any was a media file (then the event is ours). */
  addFiles(files: readonly File[]): boolean {
    const media = files.filter((f) => MEDIA_TYPES[f.type.toLowerCase()]);
    if (media.length === 0) return false;
    this.problems = [];
    for (const f of media) {
      const kind = MEDIA_TYPES[f.type.toLowerCase()]!;
      const name = f.name || fill(S.pasted, kind);
      if (!this.accepts[kind]) this.problems.push(fill(kind === 'image' ? S.noImages : S.noAudio, name));
      else if (f.size > MAX_MEDIA_BYTES) this.problems.push(fill(S.tooBig, name, formatMediaSize(f.size), formatMediaSize(MAX_MEDIA_BYTES)));
      else if (this.items.length + this.reading >= MAX_MEDIA_PER_PROMPT) this.problems.push(fill(S.tooMany, name, MAX_MEDIA_PER_PROMPT));
      else {
        // Counted while it is read (files read at once all count against the limit); the
        // refusals above stay shown when it arrives.
        this.reading++;
        void read(f).then(
          (data) => {
            this.reading--;
            // The tray may have filled meanwhile (the picker's files): a prompt never carries more than the limit.
            if (this.items.length < MAX_MEDIA_PER_PROMPT) this.items.push({ name, mimeType: f.type.toLowerCase(), data });
            else this.problems.push(fill(S.tooMany, name, MAX_MEDIA_PER_PROMPT));
            this.render();
          },
          () => {
            this.reading--;
            this.problems.push(fill(S.couldNotRead, name));
            this.render();
          },
        );
      }
    }
    this.render();
    return true;
  }

  /** Attachments read by the extension (the picker), and what it refused. */
  add(items: readonly MediaAttachment[], problems: readonly string[]): void {
    // Files still being read count against the limit too.
    const room = Math.max(0, MAX_MEDIA_PER_PROMPT - this.items.length - this.reading);
    this.items.push(...items.slice(0, room));
    this.problems = [...problems, ...items.slice(room).map((m) => fill(S.tooMany, m.name, MAX_MEDIA_PER_PROMPT))];
    this.render();
  }

  private render(): void {
    this.el.textContent = '';
    for (const m of this.items) {
      const kind = MEDIA_TYPES[m.mimeType] ?? 'file';
      const preview =
        kind === 'image' ? h('img', { class: 'media-thumb', attrs: { src: `data:${m.mimeType};base64,${m.data}`, alt: m.name } }) : h('span', { text: '♪ ' });
      this.el.append(
        h(
          'span',
          { class: 'chip media-chip', title: `${m.mimeType}, ${formatMediaSize(Math.floor(m.data.length * 0.75))}` },
          preview,
          m.name,
          h('button', {
            class: 'chip-remove link-like',
            text: '×',
            title: S.remove,
            onClick: () => {
              this.items = this.items.filter((x) => x !== m);
              this.render();
            },
          }),
        ),
      );
    }
    for (const p of this.problems) this.el.append(h('div', { class: 'media-problem', text: p }));
  }
}

function read(f: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => {
      const url = String(r.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    r.onerror = () => reject(r.error ?? new Error('read failed'));
    r.readAsDataURL(f);
  });
}
