// Sign-in's words after auth_required: one whole sentence for each thing the agent refused.
import * as assert from 'node:assert/strict';
import { signInDeclined, signInQuestion, stillAsksForSignIn } from '../../../src/app/signInWords';
import { german } from '../l10n/german';

describe('sign-in words', () => {
  it('says what the agent refused in English by default', () => {
    assert.equal(signInQuestion('Agent A', 'open a session'), 'Agent A asks you to sign in before it can open a session.');
    assert.equal(signInQuestion('Agent A', 'take prompts'), 'Agent A asks you to sign in before it can take prompts.');
    assert.equal(
      signInDeclined('Agent A', 'resume the session'),
      'Agent A asks you to sign in before it can resume the session. Run "ACP: Sign In", then try again.',
    );
  });

  it("says it in the user's language (l10n)", () => {
    assert.equal(signInQuestion('Agent A', 'open a session', german), 'Agent A bittet Sie, sich anzumelden, bevor es eine Sitzung öffnen kann.');
    assert.match(signInDeclined('Agent A', 'take prompts', german), /^Agent A bittet Sie, sich anzumelden, bevor es Eingaben annehmen kann\. Führen Sie/);
    assert.match(stillAsksForSignIn('Agent A', german), /^Agent A verlangt nach der Anmeldung weiterhin eine Anmeldung\./);
  });
});
