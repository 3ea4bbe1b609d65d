// The bottom of the view: queued prompts, config pickers, the prompt input with `/` commands
// and `@` file mentions, Send (or Queue while the agent works; Steer beside it when the agent takes
// input into its running turn: Ctrl/Cmd+Enter) and Cancel.
import type { Attachment, ConfigView, MediaAttachment, MentionItem, SessionView } from '../../src/ui/conversation/webviewMessages';
import { loadState, post, saveState } from './api';
import { h } from './dom';
import { MediaTray } from './mediaTray';
import { S, fill } from './strings';

interface Suggestion {
  label: string;
  detail: string;
  accept(): void;
}
interface Draft {
  draft: string;
}

export class Composer {
  readonly el = h('div', { class: 'composer' });
  private readonly queueEl = h('div', { class: 'queue' });
  private readonly configEl = h('div', { class: 'config' });
  private readonly suggestEl = h('div', { class: 'suggest', attrs: { role: 'listbox' } });
  private readonly attachEl = h('div', { class: 'attachments' });
  private readonly input = h('textarea', { class: 'prompt-input', attrs: { rows: '3', 'aria-label': S.prompt } });
  private readonly send = h('button', { class: 'send', text: S.send, onClick: () => this.submit(false) });
  private readonly steer = h('button', { class: 'steer', text: S.steer, title: S.steerTitle, onClick: () => this.submit(true) });
  private readonly cancel = h('button', { class: 'cancel secondary', text: S.cancel, onClick: () => this.cancelTurn() });
  private readonly media = new MediaTray();
  /** Shown instead of the prompt box when the session has ended (SessionView.ended). */
  private readonly endedText = h('span', { class: 'ended-text' });
  private readonly endedEl = h(
    'div',
    { class: 'session-ended', attrs: { role: 'status' } },
    this.endedText,
    h('button', { class: 'new-session', text: S.newSession, title: S.newSessionTitle, onClick: () => this.newSession() }),
  );
  private readonly attach = h('button', {
    class: 'attach secondary',
    text: S.attach,
    title: S.attachTitle,
    onClick: () => post({ type: 'pickMedia', sessionId: this.session?.sessionId ?? null }),
  });
  private session: SessionView | null = null;
  private configKey = '';
  private attachments: Attachment[] = [];
  private suggestions: Suggestion[] = [];
  private selected = 0;
  private mentionSeq = 0;
  private mentionTimer: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    this.suggestEl.hidden = true;
    this.input.value = loadState<Draft>().draft ?? '';
    this.el.append(
      this.endedEl,
      this.queueEl,
      this.configEl,
      this.suggestEl,
      this.attachEl,
      this.media.el,
      this.input,
      h('div', { class: 'composer-actions' }, this.attach, this.cancel, this.steer, this.send),
    );
    this.input.addEventListener('paste', (e) => {
      if (this.media.addFiles(Array.from(e.clipboardData?.files ?? []))) e.preventDefault();
    });
    this.input.addEventListener('dragover', (e) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    });
    this.input.addEventListener('drop', (e) => {
      if (this.media.addFiles(Array.from(e.dataTransfer?.files ?? []))) e.preventDefault();
    });
    this.input.addEventListener('keydown', (e) => this.onKey(e));
    this.input.addEventListener('input', () => {
      saveState<Draft>({ draft: this.input.value });
      this.updateSuggestions();
    });
    this.input.addEventListener('blur', () => setTimeout(() => this.hideSuggestions(), 150));
    this.setSession(null);
  }

  get busy(): boolean {
    return this.session?.busy ?? false;
  }

  focus(): void {
    this.input.focus();
  }

  setSession(s: SessionView | null): void {
    this.session = s;
    this.input.placeholder = s ? S.placeholder : S.noSession;
    this.send.textContent = s?.busy ? S.queue : S.send;
    this.send.title = s?.busy ? S.queueTitle : S.sendTitle;
    this.cancel.hidden = !s?.busy;
    this.steer.hidden = !s?.steerable;
    // With Steer on offer, Queue is the quieter choice.
    this.send.classList.toggle('secondary', s?.steerable === true);
    this.endedEl.hidden = !s?.ended;
    this.configEl.hidden = !!s?.ended; // nothing to set on a session no agent serves
    this.endedText.textContent = s?.ended ?? '';
    this.input.disabled = this.send.disabled = this.attach.disabled = !!s?.ended;
    this.media.setAccepts(s?.accepts ?? { image: false, audio: false });
    this.attach.hidden = !this.media.acceptsAny;
    this.renderQueue(s);
    const key = JSON.stringify(s?.config ?? []);
    if (key !== this.configKey) {
      this.configKey = key;
      this.configEl.textContent = '';
      for (const c of s?.config ?? []) this.configEl.append(this.picker(c));
    }
  }

  /** Files the extension's picker read (and what it refused). */
  mediaPicked(items: MediaAttachment[], problems: string[]): void {
    this.media.add(items, problems);
  }

  mentionResults(reqId: number, items: MentionItem[]): void {
    if (reqId !== this.mentionSeq) return;
    this.showSuggestions(items.map((it) => ({ label: it.label, detail: it.detail, accept: () => this.acceptMention(it) })));
  }

  // ------------------------------------------------------------------ submit / cancel

  /** `steer`: into the running turn now (only while Steer is offered), else Send / Queue. */
  private submit(steer: boolean): void {
    const text = this.input.value.trim();
    if (!text && this.media.count === 0) return;
    const attachments = this.attachments.filter((a) => text.includes(`@${a.name}`));
    const media = this.media.take();
    const steering = steer && this.session?.steerable === true;
    post({
      type: 'submit',
      sessionId: this.session?.sessionId ?? null,
      text,
      attachments,
      ...(media.length ? { media } : {}),
      ...(steering ? { steer: true } : {}),
    });
    this.input.value = '';
    this.attachments = [];
    this.renderAttachments();
    this.hideSuggestions();
    saveState<Draft>({ draft: '' });
  }

  private newSession(): void {
    if (this.session) post({ type: 'newSession', sessionId: this.session.sessionId });
  }

  private cancelTurn(): void {
    if (this.session) post({ type: 'cancel', sessionId: this.session.sessionId });
  }

  private onKey(e: KeyboardEvent): void {
    if (!this.suggestEl.hidden && this.suggestions.length) {
      if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
        e.preventDefault();
        const n = this.suggestions.length;
        this.selected = (this.selected + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
        this.renderSuggestions();
        return;
      }
      if (e.key === 'Enter' || e.key === 'Tab') {
        e.preventDefault();
        this.suggestions[this.selected].accept();
        return;
      }
      if (e.key === 'Escape') {
        e.preventDefault();
        this.hideSuggestions();
        return;
      }
    }
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.submit(e.ctrlKey || e.metaKey);
    }
  }

  // ------------------------------------------------------------------ suggestions

  private updateSuggestions(): void {
    const before = this.input.value.slice(0, this.input.selectionStart ?? this.input.value.length);
    const slash = /^\/(\S*)$/.exec(before);
    if (slash && this.session?.commands.length) {
      const q = slash[1].toLowerCase();
      const cmds = this.session.commands
        .filter((c) => c.name.toLowerCase().startsWith(q))
        .concat(this.session.commands.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q)));
      this.showSuggestions(
        cmds.slice(0, 30).map((c) => ({
          label: `/${c.name}`,
          detail: c.hint ? `${c.description} — ${c.hint}` : c.description,
          accept: () => this.replaceBeforeCaret(slash[0].length, `/${c.name} `),
        })),
      );
      return;
    }
    const mention = /(?:^|\s)@([^\s@]*)$/.exec(before);
    if (mention) {
      clearTimeout(this.mentionTimer);
      const reqId = ++this.mentionSeq;
      this.mentionTimer = setTimeout(() => post({ type: 'mentionQuery', reqId, query: mention[1] }), 120);
      return;
    }
    this.mentionSeq++;
    this.hideSuggestions();
  }

  private acceptMention(it: MentionItem): void {
    const before = this.input.value.slice(0, this.input.selectionStart ?? this.input.value.length);
    const m = /@([^\s@]*)$/.exec(before);
    if (!m) return;
    this.replaceBeforeCaret(m[0].length, `@${it.detail} `);
    if (!this.attachments.some((a) => a.uri === it.uri)) this.attachments.push({ uri: it.uri, name: it.detail });
    this.renderAttachments();
  }

  private replaceBeforeCaret(length: number, text: string): void {
    const caret = this.input.selectionStart ?? this.input.value.length;
    const v = this.input.value;
    this.input.value = v.slice(0, caret - length) + text + v.slice(caret);
    const at = caret - length + text.length;
    this.input.setSelectionRange(at, at);
    this.hideSuggestions();
    this.input.focus();
    saveState<Draft>({ draft: this.input.value });
  }

  private showSuggestions(list: Suggestion[]): void {
    this.suggestions = list;
    this.selected = 0;
    this.renderSuggestions();
  }

  private hideSuggestions(): void {
    this.suggestions = [];
    this.suggestEl.hidden = true;
  }

  private renderSuggestions(): void {
    this.suggestEl.textContent = '';
    this.suggestEl.hidden = this.suggestions.length === 0;
    this.suggestions.forEach((s, i) => {
      const row = h(
        'div',
        { class: `suggestion${i === this.selected ? ' selected' : ''}`, attrs: { role: 'option' } },
        h('span', { class: 'suggestion-label', text: s.label }),
        h('span', { class: 'suggestion-detail muted', text: ` ${s.detail}` }),
      );
      row.addEventListener('mousedown', (e) => {
        e.preventDefault();
        s.accept();
      });
      this.suggestEl.append(row);
    });
  }

  private renderAttachments(): void {
    this.attachEl.textContent = '';
    for (const a of this.attachments) {
      this.attachEl.append(
        h(
          'span',
          { class: 'chip', title: a.uri },
          `@${a.name}`,
          h('button', {
            class: 'chip-remove link-like',
            text: '×',
            title: S.remove,
            onClick: () => {
              this.attachments = this.attachments.filter((x) => x !== a);
              this.renderAttachments();
            },
          }),
        ),
      );
    }
  }

  // ------------------------------------------------------------------ queue and config

  private renderQueue(s: SessionView | null): void {
    this.queueEl.textContent = '';
    const queued = s?.queued ?? [];
    if (!queued.length) return;
    this.queueEl.append(h('div', { class: 'queue-title muted', text: fill(S.queued, queued.length) }));
    for (const q of queued) {
      this.queueEl.append(
        h(
          'div',
          { class: 'queued' },
          h('span', { class: 'queued-text', text: q.text, title: q.note ?? q.text }),
          q.note ? h('span', { class: 'queued-note muted', text: q.note }) : null,
          h('button', {
            class: 'link-like',
            text: '×',
            title: S.removeFromQueue,
            onClick: () => {
              if (s) post({ type: 'removeQueued', sessionId: s.sessionId, id: q.id });
            },
          }),
        ),
      );
    }
  }

  private picker(c: ConfigView): HTMLElement {
    const set = (value: string | boolean): void => {
      if (this.session) post({ type: 'setConfig', sessionId: this.session.sessionId, configId: c.id, value });
    };
    if (c.kind === 'boolean') {
      const box = h('input', { attrs: { type: 'checkbox' } });
      box.checked = c.value;
      box.addEventListener('change', () => set(box.checked));
      return h('label', { class: 'config-option', title: c.description ?? c.name }, box, ` ${c.name}`);
    }
    const select = h('select', { attrs: { 'aria-label': c.name, 'data-config-id': c.id } });
    const groups = new Map<string, HTMLElement>();
    for (const o of c.options) {
      const opt = h('option', { text: o.name, title: o.description ?? '' });
      opt.value = o.value;
      let parent: HTMLElement = select;
      if (o.group) {
        let g = groups.get(o.group);
        if (!g) {
          g = h('optgroup', { attrs: { label: o.group } });
          groups.set(o.group, g);
          select.append(g);
        }
        parent = g;
      }
      parent.append(opt);
    }
    select.value = c.value;
    select.addEventListener('change', () => set(select.value));
    return h('label', { class: 'config-option', title: c.description ?? c.name }, `${c.name} `, select);
  }
}
