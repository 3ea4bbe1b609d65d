// The words of why an agent's form or link cannot be shown (src/ui/elicitationWords.ts): each
// reason the protocol layer decodes from `elicitation/create` (a code and its data) reads as the
// sentence people read before the reasons were data, in English and in German (the German bundle,
// as a German window loads it).
import * as assert from 'node:assert/strict';
import { english } from '../../../src/common/l10n';
import { decodeElicitation } from '../../../src/protocol/common/elicitation';
import { ELICITATION_LIMITS as L, type ElicitationProblem } from '../../../src/protocol/elicitation';
import { elicitationProblemWords } from '../../../src/ui/elicitationWords';
import { german } from '../l10n/german';

const form = (requestedSchema: unknown) => ({ sessionId: 's', mode: 'form', message: 'm', requestedSchema });
const link = (url: unknown) => ({ sessionId: 's', mode: 'url', elicitationId: 'e', message: 'm', url });
const fields = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`f${i}`, { type: 'string' }]));
const deep = (levels: number): unknown => (levels === 0 ? {} : { x: deep(levels - 1) });
const choice = (list: unknown) => form({ type: 'object', properties: { a: { type: 'string', title: 'Area', enum: list } } });

/**
 * One request of each code, as an agent sends it, and the sentence it reads as (the type makes a new
 * code add its own). An http(s) URL without a host never parses (WHATWG URL), so that one is the
 * reason itself.
 */
const CASES: {
  readonly [K in ElicitationProblem['code']]:
    { readonly params: unknown; readonly english: string } | { readonly problem: ElicitationProblem; readonly english: string };
} = {
  'no-schema': { params: form(undefined), english: 'the form has no schema' },
  'schema-too-large': {
    params: form({ type: 'object', properties: { a: { type: 'string', description: 'x'.repeat(70_000) } } }),
    english: "the form's schema is 69 KB (the limit is 64 KB)",
  },
  'schema-too-deep': {
    params: form({ type: 'object', properties: { a: { type: 'string', _meta: deep(10) } } }),
    english: `the form's schema is nested more than ${L.maxDepth} levels deep`,
  },
  'schema-not-object': { params: form({ type: 'array' }), english: "the form's schema is not an object" },
  'too-many-fields': {
    params: form({ type: 'object', properties: fields(L.maxFields + 1) }),
    english: `the form has ${L.maxFields + 1} fields (the limit is ${L.maxFields})`,
  },
  'field-without-type': { params: form({ type: 'object', properties: { when: { title: 'When' } } }), english: 'field "when" has no type' },
  'no-choices': { params: choice([]), english: 'field "Area": it offers no choices' },
  'too-many-options': {
    params: choice(Array.from({ length: L.maxOptions + 1 }, (_, i) => `o${i}`)),
    english: `field "Area": a choice has ${L.maxOptions + 1} options (the limit is ${L.maxOptions})`,
  },
  'no-valid-choices': {
    params: form({ type: 'object', properties: { a: { type: 'string', title: 'Area', oneOf: [{ title: 'no const' }] } } }),
    english: 'field "Area": it offers no valid choices',
  },
  'url-missing': { params: link(undefined), english: 'the link is missing' },
  'url-too-long': {
    params: link(`https://example.com/${'a'.repeat(L.maxUrlChars)}`),
    english: `the link is ${L.maxUrlChars + 20} characters long (the limit is ${L.maxUrlChars})`,
  },
  'url-invalid': { params: link('not a url'), english: 'the link is not a valid URL' },
  'url-not-web': { params: link('javascript:alert(1)'), english: 'the link is not a web address (javascript:); only http and https links are opened' },
  'url-no-host': { problem: { code: 'url-no-host', data: {} }, english: 'the link has no host' },
};

const problemOf = (c: (typeof CASES)[ElicitationProblem['code']]): ElicitationProblem => {
  if ('problem' in c) return c.problem;
  const r = decodeElicitation(c.params);
  assert.equal(r.mode, 'unusable', JSON.stringify(r).slice(0, 200));
  return (r as Extract<typeof r, { mode: 'unusable' }>).problem;
};

describe('elicitation problem words', () => {
  // Mutation: a code's sentence changed or swapped with another's in elicitationWords.ts ("the form has
  // no schema" for 'schema-not-object'), or the decoder handing up the wrong code or data
  // (`count: names.length - 1`): the sentence differs from the one people read before.
  it('decodes each unusable request to its code and words it as the same English sentence as before', () => {
    for (const [code, c] of Object.entries(CASES)) {
      const p = problemOf(c);
      assert.equal(p.code, code);
      assert.equal(elicitationProblemWords(p, english), c.english, code);
    }
  });

  // Mutation: a message missing from l10n/bundle.l10n.de.json (german throws "no German for …"), or
  // the inner reason of a choice field worded outside `l10n` (English inside the German sentence).
  it('words them in German in a German window (the German bundle)', () => {
    for (const c of Object.values(CASES)) assert.ok(elicitationProblemWords(problemOf(c), german));
    assert.equal(
      elicitationProblemWords(problemOf(CASES['too-many-fields']), german),
      `das Formular hat ${L.maxFields + 1} Felder (die Grenze liegt bei ${L.maxFields})`,
    );
    assert.equal(elicitationProblemWords(problemOf(CASES['no-choices']), german), 'Feld „Area“: sie bietet keine Auswahlmöglichkeiten');
    assert.equal(
      elicitationProblemWords(problemOf(CASES['url-not-web']), german),
      'der Link ist keine Webadresse (javascript:); nur http- und https-Links werden geöffnet',
    );
  });
});
