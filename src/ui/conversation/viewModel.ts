// Plain-JSON views of transcript items, terminals and session state, as sent to the webview.
// Pure (no `vscode`); long texts are capped so one update cannot flood the webview.
import type { ConfigOption, ContentBlock, ToolCallContent } from '../../protocol/domain';
import type { TerminalBuffer } from '../../state/terminalBuffer';
import type { MessagePart, SessionMeta, ToolCallItem, TranscriptItem, Truncation } from '../../state/transcript';
import { jsonPreview, JSON_PREVIEW_CHARS, JSON_PREVIEW_DEPTH } from './jsonPreview';
import { sizeText } from './sizeText';
import { compactionView } from './compactionView';
import { english, type L10n } from '../../common/l10n';
import { optionPresentation } from '../../consent/optionPresentation';
import { explainModeOption } from '../../consent/modeSwitch';
import { MODE_SWITCH_KIND } from '../../state/transcript';
import { compactHunks, countChanges, diffLines, splitLines } from './lineDiff';
import { findFilePatch, parsePatch, patchStats } from './patch';
import type { BlockView, ConfigView, DiffFileView, ItemView, SessionView, TerminalView, ToolCallHeaderView, ToolContentView } from './webviewMessages';
import { sessionEndedWords } from '../sessionEndWords';
import type { QueuedPrompt, SessionEnd } from '../../state/sessionStore';
import { queueNoteText } from './steerWords';

export const RESOURCE_PREVIEW_CHARS = 4000;
export const TERMINAL_VIEW_CHARS = 100_000;
/** The longest plan a plan-mode approval shows (characters); the whole plan is in the Plans view. */
export const PLAN_VIEW_CHARS = 200_000;
const IMAGE_MAX_BASE64 = 2_000_000;
/** A JSON preview (jsonPreview.ts) whose cut note is in `l10n`'s words. */
const json = (v: unknown, l10n: L10n, max = JSON_PREVIEW_CHARS): string => jsonPreview(v, max, JSON_PREVIEW_DEPTH, l10n);
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

export function blockView(b: ContentBlock, l10n: L10n = english): BlockView {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'image': {
      const ok = IMAGE_TYPES.has(b.mimeType.toLowerCase()) && b.data.length <= IMAGE_MAX_BASE64 && /^[A-Za-z0-9+/=\s]*$/.test(b.data);
      return {
        type: 'image',
        mimeType: b.mimeType,
        src: ok ? `data:${b.mimeType.toLowerCase()};base64,${b.data.replace(/\s+/g, '')}` : null,
        uri: b.uri ?? null,
      };
    }
    case 'audio':
      return { type: 'other', label: l10n.t('audio ({0})', b.mimeType), json: l10n.t('{0} base64 characters', b.data.length) };
    case 'resource_link':
      return { type: 'link', uri: b.uri, name: b.name, title: b.title ?? null, description: b.description ?? null };
    case 'resource': {
      const text = b.resource.text;
      return {
        type: 'resource',
        uri: b.resource.uri,
        mimeType: b.resource.mimeType ?? null,
        text: text === undefined ? null : text.slice(0, RESOURCE_PREVIEW_CHARS),
        truncated: text !== undefined && text.length > RESOURCE_PREVIEW_CHARS,
      };
    }
    case 'unknown':
      return { type: 'other', label: b.rawType, json: json(b.raw, l10n) };
    // Unreachable for the compiler; at run time a type it does not know is shown raw.
    default:
      return { type: 'other', label: l10n.t('content'), json: json(b satisfies never, l10n) };
  }
}

export function partView(p: MessagePart, l10n: L10n = english): BlockView {
  return p.type === 'text' ? { type: 'text', text: p.chunks.join('') } : blockView(p.block, l10n);
}

export function toolContentView(c: ToolCallContent, index: number, l10n: L10n = english): ToolContentView {
  switch (c.type) {
    case 'content':
      return { type: 'block', block: blockView(c.content, l10n) };
    case 'terminal':
      return { type: 'terminal', terminalId: c.terminalId };
    case 'diff':
      return diffView(c, index);
    case 'unknown':
      return { type: 'other', label: c.rawType, json: json(c.raw, l10n) };
    default:
      return { type: 'other', label: l10n.t('content'), json: json(c satisfies never, l10n) };
  }
}

function diffView(c: Extract<ToolCallContent, { type: 'diff' }>, index: number): ToolContentView {
  const files: DiffFileView[] = [];
  const preview: string[] = [];
  let more = 0;
  const parsed = c.patch ? parsePatch(c.patch.text) : [];
  const addPreview = (lines: string[], extra: number, path: string): void => {
    if (c.changes.length > 1 || (c.texts?.length ?? 0) > 1) preview.push(`… ${path}`);
    preview.push(...lines);
    more += extra;
  };
  for (const ch of c.changes) {
    const f: DiffFileView = { path: ch.path, oldPath: ch.oldPath ?? null, operation: ch.operation, added: 0, removed: 0 };
    const texts = c.texts?.find((t) => t.path === ch.path);
    if (texts) {
      const lines = diffLines(splitLines(texts.oldText ?? ''), splitLines(texts.newText));
      Object.assign(f, countChanges(lines));
      const { preview: p, more: m } = compactHunks(lines);
      addPreview(p, m, ch.path);
    } else {
      const fp = findFilePatch(parsed, ch.path);
      if (fp) {
        Object.assign(f, patchStats(fp));
        const body = fp.hunks.flatMap((h) => [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines}`, ...h.lines]);
        addPreview(body.slice(0, 40), Math.max(0, body.length - 40), ch.path);
      }
    }
    files.push(f);
  }
  return { type: 'diff', index, files, preview, more };
}

export function toolHeaderView(tc: ToolCallItem, index: number, l10n: L10n = english): ToolCallHeaderView {
  return {
    kind: 'tool_call',
    itemId: tc.itemId,
    index,
    toolCallId: tc.toolCallId,
    title: tc.title ?? tc.name ?? tc.toolCallId,
    toolKind: tc.toolKind,
    status: tc.unfinished ? 'unfinished' : tc.status,
    locations: tc.locations.map((l) => ({ path: l.path, line: typeof l.line === 'number' ? l.line : null })),
    rawInput: tc.rawInput === undefined || tc.rawInput === null ? null : json(tc.rawInput, l10n),
    rawOutput: tc.rawOutput === undefined || tc.rawOutput === null ? null : json(tc.rawOutput, l10n),
    truncated: tc.truncated ? truncationText(tc.truncated, 'tool call', l10n) : null,
  };
}

/** A session's display name (its title) for the route of an inter-session message; undefined: unknown. */
export type SessionNamer = (sessionId: string) => string | undefined;

function routeName(id: string | null, names: SessionNamer | undefined, l10n: L10n): string {
  if (id === null) return l10n.t('an unnamed session');
  return names?.(id) ?? id;
}

export function itemView(item: TranscriptItem, index: number, names?: SessionNamer, l10n: L10n = english): ItemView {
  switch (item.kind) {
    case 'message':
      return {
        kind: 'message',
        itemId: item.itemId,
        index,
        role: item.role,
        local: item.local,
        ...(item.steered ? { steered: true as const } : {}),
        blocks: item.parts.map((p) => partView(p, l10n)),
        truncated: item.truncated ? truncationText(item.truncated, 'message', l10n) : null,
        ...(item.route ? { route: { from: routeName(item.route.from, names, l10n), to: routeName(item.route.to, names, l10n) } } : {}),
      };
    case 'tool_call':
      return { ...toolHeaderView(item, index, l10n), content: item.content.map((c, i) => toolContentView(c, i, l10n)) };
    case 'permission':
      return permissionView(item, index, l10n);
    case 'elicitation':
      return elicitationView(item, index, l10n);
    case 'notice':
      return { kind: 'notice', itemId: item.itemId, index, severity: item.severity, title: item.title, description: item.description };
    case 'compaction':
      return compactionView(item, index, l10n, partView, truncationText);
    case 'unknown':
      return {
        kind: 'unknown',
        itemId: item.itemId,
        index,
        label: item.updateType,
        problem: item.problem ?? null,
        json: item.truncated ? l10n.t('(not kept: {0})', truncationText(item.truncated, 'update', l10n)) : json(item.raw, l10n),
      };
    case 'turn_end':
      return {
        kind: 'turn_end',
        itemId: item.itemId,
        index,
        stopReason: item.stopReason,
        error: item.error ? `${item.error.message} (${item.error.code})` : null,
        usage: item.usage ? usageText(item.usage, l10n) : null,
      };
  }
}

/** A permission request as the conversation shows it: its subject worded, a plan-mode approval with its plan. */
function permissionView(item: Extract<TranscriptItem, { kind: 'permission' }>, index: number, l10n: L10n): Extract<ItemView, { kind: 'permission' }> {
  const s = item.subject;
  const subject = !s
    ? null
    : s.type === 'command'
      ? s.cwd
        ? l10n.t('$ {0}   (in {1})', s.command, s.cwd)
        : `$ ${s.command}`
      : s.type === 'tool_call'
        ? (s.fields.title ?? s.fields.name ?? l10n.t('tool call {0}', s.toolCallId))
        : `${s.rawType}: ${json(s.raw, l10n, 400)}`;
  const modeSwitch = item.toolKind === MODE_SWITCH_KIND;
  const planText = item.plan?.text;
  // A plan approval about a call without a title of its own: the tool call row above names it.
  const shownSubject = modeSwitch && s?.type === 'tool_call' && !s.fields.title && !s.fields.name ? null : subject;
  return {
    kind: 'permission',
    itemId: item.itemId,
    index,
    requestId: item.requestId,
    title: item.title,
    description: item.description,
    subject: shownSubject,
    options: optionPresentation(item.options, l10n).map((v) => ({
      optionId: v.optionId,
      name: v.name,
      kind: v.rawKind,
      label: v.label,
      warning: v.warning ?? null,
      explain: modeSwitch ? explainModeOption(item.options[v.index]!, l10n) : null,
    })),
    state: item.state,
    optionId: item.optionId,
    flags: item.flags,
    planMode: modeSwitch
      ? { plan: planText === undefined ? null : planText.slice(0, PLAN_VIEW_CHARS), planTruncated: (planText?.length ?? 0) > PLAN_VIEW_CHARS }
      : null,
  };
}

/** An elicitation request: its form fields, or its link with the host; raw JSON capped. */
function elicitationView(item: Extract<TranscriptItem, { kind: 'elicitation' }>, index: number, l10n: L10n): Extract<ItemView, { kind: 'elicitation' }> {
  return {
    kind: 'elicitation',
    itemId: item.itemId,
    index,
    requestId: item.requestId,
    message: item.message,
    mode: item.mode,
    title: item.form?.title ?? null,
    description: item.form?.description ?? null,
    fields: (item.form?.fields ?? []).map((f) => (f.kind === 'unknown' ? { ...f, raw: json(f.raw, l10n, 2_000) } : f)),
    url: item.url,
    host: item.host,
    toolCallId: item.toolCallId,
    problem: item.problem,
    raw: item.raw ? json(item.raw, l10n, 4_000) : null,
    state: item.state,
    note: item.note,
    answer: item.answer,
  };
}

/**
 * What a size limit dropped, said plainly, e.g. "Not all of this message was kept: it passed the
 * limit of 1 MiB per message (3,145,728 characters were dropped)."
 */
export function truncationText(t: Truncation, what: 'message' | 'tool call' | 'update', l10n: L10n = english): string {
  const size = sizeText(t.limit, l10n);
  if (what === 'update') return l10n.t('this update was larger than {0}', size);
  const parts = droppedParts(t, l10n);
  if (what === 'message')
    return parts
      ? l10n.t('Not all of this message was kept: it passed the limit of {0} per message ({1}).', size, parts)
      : l10n.t('Not all of this message was kept: it passed the limit of {0} per message.', size);
  return parts
    ? l10n.t('Not all of this tool call was kept: it passed the limit of {0} per tool call ({1}).', size, parts)
    : l10n.t('Not all of this tool call was kept: it passed the limit of {0} per tool call.', size);
}

/** What was dropped and which fields were too large ("3 characters and 1 block were dropped; its output was too large to keep"), or ''. */
function droppedParts(t: Truncation, l10n: L10n): string {
  const n = (x: number): string => x.toLocaleString('en-US');
  const chars = t.droppedChars === 1 ? l10n.t('1 character') : l10n.t('{0} characters', n(t.droppedChars));
  const blocks = t.droppedBlocks === 1 ? l10n.t('1 block') : l10n.t('{0} blocks', n(t.droppedBlocks));
  const one = t.droppedChars + t.droppedBlocks === 1;
  const parts: string[] = [];
  if (t.droppedChars > 0 && t.droppedBlocks > 0) parts.push(l10n.t('{0} and {1} were dropped', chars, blocks));
  else if (t.droppedChars > 0 || t.droppedBlocks > 0) {
    const what = t.droppedChars > 0 ? chars : blocks;
    parts.push(one ? l10n.t('{0} was dropped', what) : l10n.t('{0} were dropped', what));
  }
  const fields = t.droppedFields.map((f) => fieldName(f, l10n));
  if (fields.length === 1) parts.push(l10n.t('its {0} was too large to keep', fields[0]!));
  else if (fields.length) parts.push(l10n.t('its {0} were too large to keep', fields.join(', ')));
  return parts.join('; ');
}

/** A field of a tool call or update as people call it (the wire name when it has none). */
function fieldName(f: string, l10n: L10n): string {
  switch (f) {
    case 'rawInput':
      return l10n.t('input');
    case 'rawOutput':
      return l10n.t('output');
    case '_meta':
      return l10n.t('metadata');
    case 'raw':
      return l10n.t('content');
    default:
      return f;
  }
}

export function usageText(u: { totalTokens?: number; inputTokens?: number; outputTokens?: number }, l10n: L10n = english): string | null {
  const parts: string[] = [];
  if (typeof u.inputTokens === 'number') parts.push(l10n.t('{0} in', u.inputTokens));
  if (typeof u.outputTokens === 'number') parts.push(l10n.t('{0} out', u.outputTokens));
  if (typeof u.totalTokens === 'number') parts.push(l10n.t('{0} total', u.totalTokens));
  return parts.length ? l10n.t('{0} tokens', parts.join(', ')) : null;
}

export function terminalView(t: TerminalBuffer, l10n: L10n = english): TerminalView {
  const start = startForCap(t);
  const text = t.textFrom(start);
  return {
    terminalId: t.terminalId,
    command: t.command,
    cwd: t.cwd,
    text,
    truncated: t.truncated || start > t.firstChunkIndex,
    exit: exitText(t, l10n),
  };
}

/** First chunk to send so that a view holds about the last TERMINAL_VIEW_CHARS characters. */
function startForCap(t: TerminalBuffer): number {
  return t.length <= TERMINAL_VIEW_CHARS ? t.firstChunkIndex : t.tailStart(TERMINAL_VIEW_CHARS);
}

export function exitText(t: TerminalBuffer, l10n: L10n = english): string | null {
  const e = t.exitStatus;
  if (!e) return null;
  if (e.signal) return l10n.t('killed by {0}', e.signal);
  return typeof e.exitCode === 'number' ? l10n.t('exit {0}', e.exitCode) : l10n.t('exited');
}

/** What the SessionStore knows of the shown session (its owner); the transcript adds usage and commands. */
export interface SessionFacts {
  readonly title?: string;
  readonly turnState: string;
  readonly stopReason?: string;
  readonly configOptions: readonly ConfigOption[];
  readonly queued: readonly Pick<QueuedPrompt, 'id' | 'text' | 'note'>[];
  /** The session's agent takes input into a running turn (it advertised steering). */
  readonly steering?: boolean;
  /** What the session's agent accepts in prompts besides text (its prompt capabilities). */
  readonly accepts?: { readonly image: boolean; readonly audio: boolean };
  /** The session cannot continue (SessionStore `ended`). */
  readonly ended?: SessionEnd;
}

/** Where the conversation reads session facts, and hears that they changed (by session id). */
export interface SessionFactsSource {
  get(sessionId: string): SessionFacts | undefined;
  onDidChange(listener: (sessionId: string) => void): { dispose(): void };
}

const NO_FACTS: SessionFacts = { turnState: 'idle', configOptions: [], queued: [] };

export function sessionView(sessionId: string, m: SessionMeta, facts: SessionFacts = NO_FACTS, l10n: L10n = english): SessionView {
  const config: ConfigView[] = [];
  for (const o of facts.configOptions) {
    if (o.kind === 'select') {
      config.push({
        kind: 'select',
        id: o.id,
        name: o.name,
        description: o.description ?? null,
        category: o.category ?? null,
        value: o.currentValue,
        options: o.options.map((x) => ({ value: x.value, name: x.name, description: x.description ?? null, group: x.group ?? null })),
      });
    } else if (o.kind === 'boolean') {
      config.push({ kind: 'boolean', id: o.id, name: o.name, description: o.description ?? null, category: o.category ?? null, value: o.currentValue });
    }
  }
  const cost = m.usage?.cost ? `${costAmount(m.usage.cost.amount)} ${m.usage.cost.currency}` : null;
  return {
    sessionId,
    title: facts.title ?? null,
    turnState: facts.turnState,
    busy: !facts.ended && facts.turnState !== 'idle',
    ...(facts.ended ? { ended: sessionEndedWords(facts.ended, l10n) } : {}),
    stopReason: facts.stopReason ?? null,
    commands: m.commands.map((c) => ({ name: c.name, description: c.description, hint: c.hint ?? null })),
    config,
    usage: m.usage ? { used: m.usage.used, size: m.usage.size, cost } : null,
    lastTurnUsage: m.lastTurnUsage ? usageText(m.lastTurnUsage, l10n) : null,
    queued: facts.queued.map((q) => ({ id: q.id, text: q.text, note: queueNoteText(q.note, l10n) })),
    steerable: facts.steering === true && facts.turnState !== 'idle',
    accepts: { image: facts.accepts?.image === true, audio: facts.accepts?.audio === true },
  };
}

/**
 * An amount of money with its meaningful digits: two decimals from 0.1 up ("1.25", "0.50"), two
 * significant digits below ("0.012", "0.004", "0.0012"), "0.00" for zero, "< 0.000001" below that.
 */
export function costAmount(amount: number): string {
  if (!Number.isFinite(amount)) return String(amount);
  const abs = Math.abs(amount);
  if (abs === 0 || abs >= 0.1) return amount.toFixed(2);
  if (abs < 0.000001) return `${amount < 0 ? '> -' : '< '}0.000001`;
  const digits = 1 - Math.floor(Math.log10(abs));
  return amount.toFixed(digits).replace(/(\.\d*?[1-9])0+$/, '$1');
}
