// The conversation page's words come from the host (webviewStrings.ts, in the user's language) and
// reach the page as data in its HTML; without them the page is English.
import * as assert from 'node:assert/strict';
import { english, type L10n } from '../../../src/common/l10n';
import { conversationHtml } from '../../../src/ui/conversation/html';
import { fill, pageStrings, tableL10n } from '../../../src/ui/conversation/webviewStrings';
import { checkForm } from '../../../src/state/elicitationValues';

/** A stand-in translation: every message marked, placeholders kept. */
const marked = { t: (m: string) => `«${m}»` } as L10n;

describe('Conversation page strings', () => {
  it('English by default, templates kept for the page to fill', () => {
    const p = pageStrings();
    assert.equal(p.strings.send, 'Send');
    assert.equal(p.strings.queued, 'Queued ({0})');
    assert.equal(fill(p.strings.queued, 3), 'Queued (3)');
  });

  it('every word and form message goes through the given l10n', () => {
    const p = pageStrings(marked);
    for (const [k, v] of Object.entries(p.strings)) assert.match(v, /^«.*»$/s, k);
    for (const [k, v] of Object.entries(p.form)) assert.equal(v, `«${k}»`);
  });

  it('the page gets them as data, escaped, and its language', () => {
    const html = conversationHtml({ cspSource: 'c', script: 's.js', style: 's.css' }, 'N', { strings: { send: '"<Senden>"' } }, 'de');
    assert.match(html, /<html lang="de">/);
    assert.match(html, /data-strings="\{&quot;strings&quot;:\{&quot;send&quot;:&quot;\\&quot;&lt;Senden&gt;\\&quot;&quot;\}\}"/);
    assert.doesNotMatch(conversationHtml({ cspSource: 'c', script: 's.js', style: 's.css' }, 'N'), /data-strings/);
    assert.match(html, /<title>Conversation<\/title>/, 'no word for the title given: English');
    assert.match(
      conversationHtml({ cspSource: 'c', script: 's.js', style: 's.css' }, 'N', { strings: { conversation: 'Unterhaltung' } }, 'de'),
      /<title>Unterhaltung<\/title>/,
    );
  });

  it('the form checks of the page speak through its table', () => {
    const form = {
      fields: [
        { kind: 'string', name: 'a', label: 'A', description: null, required: true, default: null, minLength: 3, maxLength: null, format: null, pattern: null },
      ],
    } as never;
    const de = tableL10n({ 'Required.': 'Erforderlich.', 'At least {0} characters.': 'Mindestens {0} Zeichen.' });
    assert.deepEqual(checkForm(form, { a: '' }, de), { ok: false, errors: { a: 'Erforderlich.' } });
    assert.deepEqual(checkForm(form, { a: 'x' }, de), { ok: false, errors: { a: 'Mindestens 3 Zeichen.' } });
    assert.deepEqual(checkForm(form, { a: '' }, english), { ok: false, errors: { a: 'Required.' } });
  });
});
