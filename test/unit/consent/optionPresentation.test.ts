import assert from 'node:assert/strict';
import { contradiction, optionPresentation, outcomeFor, readName, viewForLabel } from '../../../src/consent/optionPresentation';
import type { PermissionOption } from '../../../src/protocol/domain';

const o = (optionId: string, name: string, kind: string): PermissionOption => ({ optionId, name, kind });

describe('optionPresentation — a button means what it says', () => {
  it("shows each kind in our words next to the agent's name", () => {
    const v = optionPresentation([
      o('a', 'OK', 'allow_once'),
      o('b', 'Always Allow', 'allow_always'),
      o('c', 'Reject', 'reject_once'),
      o('d', 'Never', 'reject_always'),
    ]);
    assert.deepEqual(
      v.map((x) => x.label),
      ['Allow once — "OK"', 'Always allow', 'Reject once — "Reject"', 'Always reject — "Never"'],
    );
    assert.deepEqual(
      v.map((x) => x.mayCreateRule),
      [false, true, false, false],
    );
    assert.deepEqual(
      v.map((x) => x.contradicts),
      [false, false, false, false],
    );
  });

  it('flags "Reject" sent as allow_always: marked, explained, no rule, never auto-picked', () => {
    const [v] = optionPresentation([o('x', 'Reject', 'allow_always')]);
    assert.equal(v!.label, 'Always allow — "Reject" ⚠ name contradicts kind');
    assert.equal(v!.contradicts, true);
    assert.equal(v!.mayCreateRule, false);
    assert.equal(v!.mayAutoPick, false);
    assert.match(v!.warning!, /calls this option "Reject", but its name sounds like a refusal, but choosing it ALLOWS/);
  });

  it('two options both named "OK" get distinct labels that map back to their own ids', () => {
    const views = optionPresentation([
      o('allow', 'OK', 'allow_once'),
      o('deny', 'OK', 'reject_once'),
      o('x1', 'OK', 'allow_once'),
      o('x2', 'OK', 'allow_once'),
    ]);
    const labels = views.map((v) => v.label);
    assert.equal(new Set(labels).size, 4, labels.join(' | '));
    assert.deepEqual(labels, ['Allow once — "OK" (#1)', 'Reject once — "OK" ⚠ name contradicts kind', 'Allow once — "OK" (#3)', 'Allow once — "OK" (#4)']);
    for (const v of views) assert.equal(viewForLabel(views, v.label)?.optionId, v.optionId);
  });

  it('flags names that contradict the kind, in any common wording', () => {
    const allowNames = [
      'Allow',
      'Yes',
      'OK',
      'Okay',
      'Approve',
      'Accept',
      'Proceed',
      'Run',
      'Continue',
      'Confirm',
      'Run anyway',
      'Go ahead',
      "Yes, and don't ask again",
    ];
    const rejectNames = [
      'Reject',
      'Deny',
      'No',
      'Cancel',
      "Don't allow",
      'Do not run',
      'Never',
      'Block',
      'Stop',
      'Refuse',
      'Decline',
      'Skip',
      'Abort',
      'No, thanks',
      'DON’T RUN',
    ];
    for (const n of rejectNames) {
      assert.ok(contradiction('allow_once', n), `allow_once "${n}"`);
      assert.ok(contradiction('allow_always', n), `allow_always "${n}"`);
    }
    for (const n of allowNames) {
      assert.ok(contradiction('reject_once', n), `reject_once "${n}"`);
      assert.ok(contradiction('reject_always', n), `reject_always "${n}"`);
    }
    assert.match(contradiction('allow_once', 'Always allow')!, /says "always", but it only answers this once/);
    assert.match(contradiction('allow_once', "Allow, don't ask again")!, /always/);
    assert.match(contradiction('allow_always', 'Allow once')!, /LASTING/);
    assert.match(contradiction('allow_always', 'Just this time')!, /LASTING/);
    assert.ok(contradiction('reject_once', 'Always reject'));
  });

  it('does not flag the names real agents use', () => {
    const fine: [Parameters<typeof contradiction>[0], string][] = [
      ['allow_once', 'Allow'],
      ['allow_once', 'Allow once'],
      ['allow_once', 'Yes'],
      ['allow_always', 'Always Allow'],
      ['allow_always', 'Allow always'],
      ['allow_always', "Yes, and don't ask again"],
      ['allow_always', 'Yes, and auto-accept all actions'],
      ['allow_always', 'Approve for session'],
      ['reject_once', 'Reject'],
      ['reject_once', 'No'],
      ['reject_once', 'Deny'],
      ['reject_once', 'No, and tell the agent what to do differently'],
      ['reject_always', 'Always reject'],
      ['reject_always', 'Never allow'],
      ['reject_once', 'Abort'],
      ['allow_once', 'Allow once'],
      ['allow_once', '允许'],
    ];
    for (const [kind, name] of fine) assert.equal(contradiction(kind, name), undefined, `${kind} "${name}"`);
    assert.deepEqual(readName("Yes, and don't ask again"), { polarity: 'allow', lasting: true, once: false });
  });

  it('shows unknown kinds as such; they never create rules and are sent as chosen', () => {
    const [v] = optionPresentation([o('m', 'Allow for a minute', 'allow_for_minute')]);
    assert.equal(v!.label, 'Unknown kind "allow_for_minute" — "Allow for a minute"');
    assert.equal(v!.kind, 'unknown');
    assert.equal(v!.grants, 'unknown');
    assert.equal(v!.mayCreateRule, false);
    assert.equal(v!.mayAutoPick, false);
    assert.match(v!.warning!, /does not know the option kind/);
    assert.deepEqual(outcomeFor(v!), { outcome: 'selected', optionId: 'm' });
  });

  it("the agent's name cannot forge the label structure or hide text", () => {
    const views = optionPresentation([
      o('a', 'Reject" — Always allow', 'allow_once'),
      o('b', 'OK ⚠ name contradicts kind', 'allow_once'),
      o('c', 'Run\u202E\u0000\nnow', 'allow_once'),
      o('d', '', 'reject_once'),
      o('e', 'x'.repeat(500), 'reject_once'),
    ]);
    assert.equal(views[0]!.label, 'Allow once — "Reject\' — Always allow" ⚠ name contradicts kind');
    assert.equal(views[1]!.label, 'Allow once — "OK ! name contradicts kind"');
    assert.equal(views[2]!.label, 'Allow once — "Run now"');
    assert.equal(views[3]!.label, 'Reject once — (no name)');
    assert.ok(views[4]!.label.length < 100 && views[4]!.label.endsWith('…"'));
  });

  it('options sharing an id with different kinds: never a rule, and a reject pick answers cancelled', () => {
    const views = optionPresentation([o('x', 'Allow', 'allow_always'), o('x', 'Reject', 'reject_once'), o('y', 'Allow', 'allow_once')]);
    assert.deepEqual(
      views.map((v) => v.ambiguousId),
      [true, true, false],
    );
    assert.equal(views[0]!.mayCreateRule, false);
    assert.deepEqual(outcomeFor(views[1]!), { outcome: 'cancelled' });
    assert.deepEqual(outcomeFor(views[0]!), { outcome: 'selected', optionId: 'x' });
    assert.deepEqual(outcomeFor(views[2]!), { outcome: 'selected', optionId: 'y' });
  });
});
