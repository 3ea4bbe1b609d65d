// One DOM element per transcript item, built from its view and patched by deltas.
import type { BlockView, ItemView, ToolCallHeaderView, ToolContentView } from '../../src/ui/conversation/webviewMessages';
import { post } from './api';
import { MarkdownStream, renderBlock } from './blocks';
import { compaction } from './compaction';
import { add, h } from './dom';
import { elicitation } from './elicitation';
import type { Terminals } from './terminals';
import { S, fill } from './strings';

export interface ItemContext {
  terminals: Terminals;
  sessionId(): string | null;
}

export interface RenderedItem {
  view: ItemView;
  el: HTMLElement;
  /** Appends to a message (text continues its last text block). */
  append?(text: string | undefined, blocks: BlockView[] | undefined): void;
  /** Replaces a tool call's header and appends content. */
  tool?(header: ToolCallHeaderView, append: ToolContentView[]): void;
}

export function renderItem(view: ItemView, ctx: ItemContext): RenderedItem {
  const r = build(view, ctx);
  r.el.classList.add('item');
  r.el.dataset.itemId = view.itemId;
  r.el.dataset.index = String(view.index);
  r.el.dataset.kind = view.kind;
  return r;
}

function build(view: ItemView, ctx: ItemContext): RenderedItem {
  switch (view.kind) {
    case 'message':
      return message(view);
    case 'tool_call':
      return toolCall(view, ctx);
    case 'permission':
      return { view, el: permission(view, ctx) };
    case 'elicitation':
      return { view, el: elicitation(view, () => ctx.sessionId()) };
    case 'notice':
      return {
        view,
        el: h(
          'div',
          { class: `notice severity-${cssToken(view.severity)}` },
          h('span', { class: 'notice-title', text: view.title }),
          view.description ? h('div', { class: 'notice-desc', text: view.description }) : null,
        ),
      };
    case 'compaction':
      return { view, ...compaction(view) };
    case 'unknown':
      return {
        view,
        el: h(
          'details',
          { class: view.problem ? 'unknown rejected' : 'unknown' },
          h('summary', { text: view.problem ? fill(S.badUpdate, view.label, view.problem) : fill(S.unsupportedUpdate, view.label) }),
          h('pre', { text: view.json }),
        ),
      };
    case 'turn_end':
      return {
        view,
        el: h(
          'div',
          { class: `turn-end stop-${cssToken(view.stopReason)}`, title: view.stopReason },
          h('span', { text: stopLabel(view.stopReason) }),
          view.usage ? h('span', { class: 'muted', text: ` · ${view.usage}` }) : null,
          view.error ? h('div', { class: 'turn-error', text: view.error }) : null,
        ),
      };
  }
}

// ------------------------------------------------------------------ messages

function roleLabel(view: Extract<ItemView, { kind: 'message' }>): string {
  if (view.role === 'session') return fill(S.messageFromTo, view.route?.from ?? '?', view.route?.to ?? '?');
  return view.role === 'user' ? S.you : S.agent;
}

function message(view: Extract<ItemView, { kind: 'message' }>): RenderedItem {
  const blocksEl = h('div', { class: 'blocks' });
  let last: MarkdownStream | undefined;
  const add = (b: BlockView): void => {
    const r = renderBlock(b);
    blocksEl.append(r.el);
    last = r.stream;
  };
  view.blocks.forEach(add);
  const note = view.truncated ? h('div', { class: 'truncated-note muted', text: view.truncated }) : null;
  let el: HTMLElement;
  if (view.role === 'thought') {
    el = h('details', { class: 'message role-thought' }, h('summary', { text: S.thinking }), blocksEl, note);
  } else {
    const role = h('div', { class: 'role', text: roleLabel(view) }, view.steered ? h('span', { class: 'steered-mark', text: ` · ${S.steered}` }) : null);
    el = h('div', { class: `message role-${view.role}${view.local ? ' local' : ''}${view.steered ? ' steered' : ''}` }, role, blocksEl, note);
  }
  return {
    view,
    el,
    append(text, blocks) {
      if (text) {
        if (last) last.append(text);
        else add({ type: 'text', text });
      }
      blocks?.forEach(add);
    },
  };
}

// ------------------------------------------------------------------ tool calls

function toolCall(view: Extract<ItemView, { kind: 'tool_call' }>, ctx: ItemContext): RenderedItem {
  const head = h('div', { class: 'tool-header' });
  const contentEl = h('div', { class: 'tool-content' });
  const el = h('div', { class: 'tool' }, head, contentEl);
  let lastText: MarkdownStream | undefined;
  const setHeader = (hv: ToolCallHeaderView): void => {
    el.className = `tool item status-${cssToken(hv.status ?? 'pending')}`;
    head.textContent = '';
    add(
      head,
      h(
        'div',
        { class: 'tool-line' },
        h('span', { class: 'tool-kind', text: hv.toolKind ?? 'tool' }),
        h('span', { class: 'tool-title', text: hv.title }),
        h('span', { class: 'tool-status', text: hv.status ?? 'pending' }),
      ),
      hv.locations.length ? h('div', { class: 'tool-locations' }, ...hv.locations.map(location)) : null,
      hv.rawInput ? h('details', { class: 'tool-raw' }, h('summary', { text: S.input }), h('pre', { text: hv.rawInput })) : null,
      hv.rawOutput ? h('details', { class: 'tool-raw' }, h('summary', { text: S.output }), h('pre', { text: hv.rawOutput })) : null,
      hv.truncated ? h('div', { class: 'truncated-note muted', text: hv.truncated }) : null,
    );
  };
  const addContent = (c: ToolContentView, merge: boolean): void => {
    if (c.type === 'block' && c.block.type === 'text' && merge && lastText) {
      lastText.append(c.block.text);
      return;
    }
    lastText = undefined;
    if (c.type === 'block') {
      const r = renderBlock(c.block);
      lastText = r.stream;
      contentEl.append(r.el);
    } else if (c.type === 'terminal') contentEl.append(ctx.terminals.mount(c.terminalId));
    else if (c.type === 'diff') contentEl.append(diff(c, view.itemId, ctx));
    else contentEl.append(h('details', { class: 'block-other' }, h('summary', { text: c.label }), h('pre', { text: c.json })));
  };
  setHeader(view);
  for (const c of view.content) addContent(c, false);
  return {
    view,
    el,
    tool(header, append) {
      setHeader(header);
      // Streamed text chunks continue the text before them.
      for (const c of append) addContent(c, true);
    },
  };
}

function location(l: { path: string; line: number | null }): HTMLElement {
  const name = l.path.split(/[\\/]/).pop() || l.path;
  return h('button', {
    class: 'location link-like',
    text: l.line !== null ? `${name}:${l.line}` : name,
    title: l.path,
    onClick: () => post({ type: 'openLocation', path: l.path, line: l.line }),
  });
}

function diff(c: Extract<ToolContentView, { type: 'diff' }>, itemId: string, ctx: ItemContext): HTMLElement {
  const el = h('div', { class: 'diff' });
  c.files.forEach((f, file) => {
    el.append(
      h(
        'div',
        { class: 'diff-file' },
        h('span', { class: `diff-op op-${cssToken(f.operation)}`, text: opLetter(f.operation), title: f.operation }),
        h('span', { class: 'diff-path', text: f.oldPath && f.oldPath !== f.path ? `${f.oldPath} → ${f.path}` : f.path, title: f.path }),
        h('span', { class: 'diff-stat' }, h('span', { class: 'add', text: `+${f.added}` }), ' ', h('span', { class: 'del', text: `−${f.removed}` })),
        h('button', {
          class: 'open-diff',
          text: S.openDiff,
          onClick: () => {
            const sessionId = ctx.sessionId();
            if (sessionId) post({ type: 'openDiff', sessionId, itemId, index: c.index, file });
          },
        }),
      ),
    );
  });
  if (c.preview.length) {
    // A region the keyboard can reach and scroll, named for screen readers.
    const pre = h('pre', { class: 'diff-preview', attrs: { tabindex: '0', role: 'region', 'aria-label': fill(S.diffPreview, c.files[0]?.path ?? '') } });
    for (const line of c.preview) {
      const cls = line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : line.startsWith('@') || line.startsWith('…') ? 'hunk' : 'ctx';
      pre.append(h('span', { class: `line ${cls}`, text: line }), '\n');
    }
    el.append(pre);
  }
  if (c.more > 0) el.append(h('div', { class: 'muted diff-more', text: fill(S.moreLines, c.more) }));
  return el;
}

// ------------------------------------------------------------------ permissions

function permission(view: Extract<ItemView, { kind: 'permission' }>, ctx: ItemContext): HTMLElement {
  const pm = view.planMode;
  const el = h(
    'div',
    { class: `permission state-${view.state}${pm ? ' plan-mode' : ''}` },
    h(
      'div',
      { class: 'perm-head' },
      h('span', { class: 'perm-badge', text: pm ? S.planApproval : S.permission }),
      h('span', { class: 'perm-title', text: view.title }),
    ),
    view.description ? h('div', { class: 'perm-desc', text: view.description }) : null,
    view.subject ? h('pre', { class: 'perm-subject', text: view.subject }) : null,
    pm ? planSection(pm, view.state === 'pending') : null,
    view.flags.length
      ? h('div', { class: 'perm-flags' }, ...view.flags.map((f) => h('span', { class: `flag flag-${cssToken(f)}`, text: flagLabel(f), title: f })))
      : null,
  );
  if (view.state === 'pending') {
    // Each button says what it does (its kind) next to the agent's name for it; a contradiction is flagged.
    const buttons = view.options.map((o, option) =>
      h('button', {
        class: `perm-option kind-${cssToken(o.kind)}${o.warning ? ' contradicts' : ''}`,
        text: o.label,
        title: o.warning ?? o.kind,
        attrs: { 'data-option-id': o.optionId },
        onClick: () => {
          const sessionId = ctx.sessionId();
          if (!sessionId) return;
          for (const b of buttons) b.disabled = true;
          post({ type: 'permission', sessionId, requestId: view.requestId, optionId: o.optionId, option });
        },
      }),
    );
    // A plan approval explains each choice in words beside its button.
    el.append(
      pm
        ? h(
            'div',
            { class: 'perm-options perm-choices' },
            ...buttons.map((b, i) => h('div', { class: 'perm-choice' }, b, h('div', { class: 'perm-explain', text: view.options[i]!.explain ?? '' }))),
          )
        : h('div', { class: 'perm-options' }, ...buttons),
    );
  } else {
    const chosen = view.options.find((o) => o.optionId === view.optionId);
    el.append(h('div', { class: 'perm-answer', text: view.state === 'selected' ? fill(S.answered, chosen?.label ?? view.optionId ?? '') : S.cancelled }));
  }
  return el;
}

/** The plan of a plan-mode approval, rendered in full (untrusted Markdown, see markdown.ts); folded once answered. */
function planSection(pm: NonNullable<Extract<ItemView, { kind: 'permission' }>['planMode']>, open: boolean): HTMLElement {
  const body = pm.plan === null ? h('div', { class: 'muted', text: S.noPlanText }) : new MarkdownStream(pm.plan).el;
  const details = h(
    'details',
    { class: 'perm-plan' },
    h('summary', { text: S.planToApprove }),
    body,
    pm.planTruncated ? h('div', { class: 'truncated-note muted', text: S.planTruncated }) : null,
  );
  if (open) details.setAttribute('open', '');
  return details;
}

// ------------------------------------------------------------------ labels

function cssToken(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '-')
    .slice(0, 40);
}

function flagLabel(flag: string): string {
  if (flag === 'not_in_plan') return S.notInPlan;
  const s = flag.replace(/_/g, ' ');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function opLetter(op: string): string {
  return ({ add: 'A', delete: 'D', modify: 'M', move: 'R', copy: 'C' } as Record<string, string>)[op] ?? '?';
}

const STOP_LABELS: Record<string, string> = {
  end_turn: S.turnEnded,
  cancelled: S.cancelled,
  max_tokens: S.stoppedTokens,
  max_turn_requests: S.stoppedRequests,
  refusal: S.agentRefused,
  error: S.turnFailed,
};

function stopLabel(reason: string): string {
  return STOP_LABELS[reason] ?? fill(S.turnEndedWhy, reason);
}
