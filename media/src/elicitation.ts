// An elicitation card: a form built from the agent's schema (text, formats, choices, numbers,
// yes/no, multi-select), checked as the user submits (the same checkForm the extension applies
// again), with Submit / Decline / Cancel; or a link shown with its host, opened only when the user
// picks "Open <host>". Every agent string goes in as textContent.
import type { ElicitationFieldView, ElicitationView } from '../../src/ui/conversation/webviewMessages';
import { checkForm, initialValues, type RawValue, type RawValues } from '../../src/state/elicitationValues';
import { post } from './api';
import { h } from './dom';
import { S, fill, formL10n } from './strings';

const STATE_LABELS: Record<ElicitationView['state'], string> = {
  pending: '',
  accepted: S.submitted,
  declined: S.declined,
  cancelled: S.cancelled,
  completed: S.done,
};

type Read = () => RawValue;

export function elicitation(view: ElicitationView, sessionId: () => string | null): HTMLElement {
  const el = card(view);
  if (view.state !== 'pending') {
    el.append(answered(view));
    return el;
  }
  if (view.note) el.append(h('div', { class: 'elic-error elic-note', text: view.note }));
  const isUrl = view.mode === 'url';
  const form = isUrl ? undefined : formOf(view);
  if (form) el.append(form.el);
  const send = (action: 'accept' | 'decline' | 'cancel', values?: RawValues): void => {
    const id = sessionId();
    if (!id) return;
    for (const b of buttons) b.disabled = true;
    post({ type: 'elicitation', sessionId: id, requestId: view.requestId, action, ...(values ? { values } : {}) });
  };
  const submit = (): void => {
    if (!form) {
      send('accept');
      return;
    }
    const values = form.check();
    if (values) send('accept', values);
  };
  const buttons = [
    h('button', { class: 'elic-accept', text: isUrl ? fill(S.openHost, view.host ?? S.link) : S.submit, onClick: submit }),
    h('button', { class: 'elic-decline secondary', text: S.decline, onClick: () => send('decline') }),
    h('button', { class: 'elic-cancel secondary', text: S.cancel, onClick: () => send('cancel') }),
  ];
  el.append(h('div', { class: 'elic-actions' }, ...buttons));
  return el;
}

/** The card with what the agent sent: its words, the host a link opens, the request as sent. */
function card(view: ElicitationView): HTMLElement {
  const isUrl = view.mode === 'url';
  const el = h(
    'div',
    { class: `elicitation mode-${view.mode} state-${view.state}` },
    h(
      'div',
      { class: 'elic-head' },
      h('span', { class: 'elic-badge', text: isUrl ? S.linkFromAgent : S.agentAsks }),
      h('span', { class: 'elic-title', text: view.title ?? '' }),
    ),
    h('div', { class: 'elic-message', text: view.message }),
    view.description ? h('div', { class: 'elic-desc muted', text: view.description }) : null,
    view.toolCallId ? h('div', { class: 'elic-tool muted', text: fill(S.forToolCall, view.toolCallId) }) : null,
  );
  if (isUrl && view.host) {
    el.append(
      h('div', { class: 'elic-host' }, h('span', { text: S.opensPageOn }), h('strong', { class: 'elic-hostname', text: view.host })),
      h('div', { class: 'elic-url muted', text: view.url ?? '' }),
    );
  }
  if (view.raw) el.append(h('details', { class: 'unknown' }, h('summary', { text: S.requestAsSent }), h('pre', { text: view.raw })));
  return el;
}

/** How an elicitation no longer pending was answered. */
function answered(view: ElicitationView): HTMLElement {
  return h(
    'div',
    { class: 'elic-answer' },
    STATE_LABELS[view.state] ? h('div', { class: 'elic-state', text: STATE_LABELS[view.state] }) : null,
    ...(view.answer ?? []).map((line) => h('div', { class: 'elic-value', text: line })),
    view.note ? h('div', { class: 'elic-note', text: view.note }) : null,
  );
}

/** The form of a form-mode elicitation; `check` shows each field's problem and returns the values when there is none. */
function formOf(view: ElicitationView): { el: HTMLElement; check(): RawValues | undefined } {
  const readers = new Map<string, Read>();
  const errors = new Map<string, HTMLElement>();
  const start = initialValues(view);
  const form = h('div', { class: 'elic-form' });
  for (const f of view.fields) {
    const err = h('div', { class: 'elic-error' });
    errors.set(f.name, err);
    const { control, read } = fieldControl(f, start[f.name]);
    const clear = (): void => {
      err.textContent = '';
    };
    control.addEventListener('input', clear);
    control.addEventListener('change', clear);
    if (read) readers.set(f.name, read);
    const label = h('label', { class: 'elic-label', text: `${f.label}${f.required ? ' *' : ''}` });
    labelFor(label, control);
    form.append(
      h(
        'div',
        { class: `elic-field kind-${f.kind}`, attrs: { 'data-field': f.name } },
        label,
        f.description ? h('div', { class: 'elic-field-desc muted', text: f.description }) : null,
        control,
        err,
      ),
    );
  }
  const check = (): RawValues | undefined => {
    const values: RawValues = {};
    for (const [name, read] of readers) values[name] = read();
    const result = checkForm(view, values, formL10n);
    for (const [name, e] of errors) e.textContent = result.ok ? '' : (result.errors[name] ?? '');
    return result.ok ? values : undefined;
  };
  return { el: form, check };
}

let fieldIds = 0;

/**
 * Ties the field's label to its control, so a screen reader names the control by it and a click on
 * the label focuses it; a group of boxes (each labelled by its option) is named by it as a group.
 */
function labelFor(label: HTMLLabelElement, control: HTMLElement): void {
  label.id = `elic-label-${++fieldIds}`;
  if (control.classList.contains('elic-multi')) {
    control.setAttribute('role', 'group');
    control.setAttribute('aria-labelledby', label.id);
    return;
  }
  const target = control.matches('input, select, textarea') ? control : control.querySelector('input, select, textarea');
  if (!target) return;
  target.id ||= `elic-field-${fieldIds}`;
  label.htmlFor = target.id;
}

const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

function fieldControl(f: ElicitationFieldView, start: RawValue | undefined): { control: HTMLElement; read?: Read } {
  switch (f.kind) {
    case 'boolean': {
      const box = h('input', { class: 'elic-input', attrs: { type: 'checkbox', name: f.name } });
      box.checked = start === true;
      return { control: box, read: () => box.checked };
    }
    case 'choice': {
      const select = h(
        'select',
        { class: 'elic-input', attrs: { name: f.name } },
        h('option', { text: S.choose, attrs: { value: '' } }),
        ...f.options.map((o) => h('option', { text: o.title, title: o.description ?? '', attrs: { value: o.value } })),
      );
      select.value = typeof start === 'string' ? start : '';
      return { control: select, read: () => select.value };
    }
    case 'multi': {
      const boxes = f.options.map((o) => {
        const box = h('input', { attrs: { type: 'checkbox', name: f.name, value: o.value } });
        box.checked = Array.isArray(start) && start.includes(o.value);
        return { box, label: h('label', { class: 'elic-choice', title: o.description ?? '' }, box, ` ${o.title}`) };
      });
      return {
        control: h('div', { class: 'elic-input elic-multi' }, ...boxes.map((b) => b.label)),
        read: () => boxes.filter((b) => b.box.checked).map((b) => b.box.value),
      };
    }
    case 'unknown':
      return {
        control: h('details', { class: 'unknown' }, h('summary', { text: fill(S.unknownField, f.rawType) }), h('pre', { text: f.raw })),
      };
    case 'number':
    case 'integer': {
      const input = h('input', { class: 'elic-input', attrs: { type: 'number', name: f.name, step: f.kind === 'integer' ? '1' : 'any' } });
      if (f.minimum !== null) input.min = String(f.minimum);
      if (f.maximum !== null) input.max = String(f.maximum);
      input.value = typeof start === 'string' ? start : '';
      return { control: input, read: () => input.value };
    }
    case 'string': {
      const input = h('input', { class: 'elic-input', attrs: { type: INPUT_TYPES[f.format ?? ''] ?? 'text', name: f.name } });
      if (f.maxLength !== null) input.maxLength = f.maxLength;
      input.value = typeof start === 'string' ? start : '';
      const hint = f.pattern ? h('div', { class: 'muted elic-hint', text: fill(S.expectedForm, f.pattern) }) : null;
      return { control: hint ? h('div', {}, input, hint) : input, read: () => input.value };
    }
  }
}
