// The allow-list on a terminal sign-in method's variables and the checks on its arguments
// (src/app/signInEnv.ts): what a sign-in needs passes, everything else is refused by name (never
// by value), and what the confirmation shows hides secrets.
import assert from 'node:assert/strict';
import { checkSignInArgs, checkSignInEnv, HIDDEN, MAX_SIGN_IN_VARS, SignInEnvRefusedError, shownWord, signInConfirmation } from '../../../src/app/signInEnv';
import { german } from '../l10n/german';

const one = (name: string, value: string) => checkSignInEnv([{ name, value }]);

describe('terminal sign-in variables (allow-list)', () => {
  it('accepts the shapes a sign-in uses, showing all but secrets', () => {
    const vars = checkSignInEnv([
      { name: 'OPENAI_API_KEY', value: 'sk-proj-abc' },
      { name: 'GH_TOKEN', value: 'x' },
      { name: 'ANTHROPIC_BASE_URL', value: 'https://api.example.com/v1' },
      { name: 'AZURE_OPENAI_ENDPOINT', value: 'http://localhost:8080' },
      { name: 'AWS_REGION', value: 'eu-west-1' },
      { name: 'GOOGLE_CLOUD_LOCATION', value: 'us-central1' },
      { name: 'AWS_PROFILE', value: 'work' },
      { name: 'GOOGLE_CLOUD_PROJECT', value: 'my-project' },
      { name: 'ACME_PROJECT_ID', value: 'p-1' },
      { name: 'ACME_ORG', value: 'acme' },
      { name: 'OPENAI_ORGANIZATION', value: 'org-1' },
      { name: 'ACME_ACCOUNT', value: 'me@example.com' },
      { name: 'ACME_TENANT', value: 'contoso' },
      { name: 'AZURE_TENANT_ID', value: '72f988bf-86f1-41af-91ab-2d7cd011db47' },
      { name: 'ACME_CLIENT_ID', value: 'cli' },
      { name: 'NO_BROWSER', value: 'true' },
    ]);
    assert.equal(vars.length, 16);
    const shown = Object.fromEntries(vars.map((v) => [v.name, v.shown]));
    assert.equal(shown.OPENAI_API_KEY, HIDDEN);
    assert.equal(shown.GH_TOKEN, HIDDEN);
    assert.equal(shown.ANTHROPIC_BASE_URL, '"https://api.example.com/v1"');
    assert.equal(shown.AZURE_TENANT_ID, '"72f988bf-86f1-41af-91ab-2d7cd011db47"');
    assert.equal(shown.NO_BROWSER, '"true"');
  });

  it('refuses every other name, naming it and never its value', () => {
    for (const name of [
      'PYTHONUSERBASE',
      'DOTNET_STARTUP_HOOKS',
      'NODE_OPTIONS',
      'LD_PRELOAD',
      'FOO',
      'BROWSER',
      'PATH',
      'openai_api_key', // lower case
      '_TOKEN', // a suffix alone
      'PIP_INDEX_URL', // package sources, by tool prefix…
      'NPM_CONFIG_TOKEN',
      'GIT_ASKPASS_TOKEN',
      'PUPPETEER_DOWNLOAD_BASE_URL',
      'ACME_MIRROR_URL', // …or by what the URL is for
      'ACME_REGISTRY_URL',
    ]) {
      assert.throws(
        () => one(name, 'value-1234'),
        (e: Error) => e instanceof SignInEnvRefusedError && e.message.includes(name) && !e.message.includes('value-1234'),
        name,
      );
    }
  });

  it('bounds values and refuses control and invisible characters', () => {
    assert.throws(() => one('ACME_API_KEY', 'a\nb'), /control or invisible/);
    assert.throws(() => one('ACME_REGION', 'eu\u202ewest'), /control or invisible/);
    assert.throws(() => one('ACME_API_KEY', 'x'.repeat(4097)), /at most 4,096/);
    assert.throws(() => one('ACME_API_KEY', 'has space'), /not a credential/);
    assert.throws(() => one('ACME_REGION', 'x'.repeat(257)), /at most 256/);
    assert.throws(() => one('ACME_PROFILE', '$(id)'), /not a name/);
    assert.throws(() => one('NO_BROWSER', 'please'), /NO_BROWSER may only be/);
    for (const url of ['file:///etc/passwd', 'https://user:pw@example.com', 'https://example.com/?t=1', 'https://e.com/#x', 'not a url']) {
      assert.throws(() => one('ACME_BASE_URL', url), /not a plain http: or https: address/, url);
    }
    assert.throws(() => one('ACME_BASE_URL', `https://e.com/${'a'.repeat(2048)}`), /2,048/);
    const many = Array.from({ length: MAX_SIGN_IN_VARS + 1 }, (_, i) => ({ name: `A${i}_REGION`, value: 'x' }));
    assert.throws(() => checkSignInEnv(many), /at most 32/);
  });

  it('masks a shown value that looks like a token, and a later duplicate wins', () => {
    assert.equal(one('ACME_ACCOUNT', 'ghp_' + 'a'.repeat(36))[0]!.shown, HIDDEN);
    assert.equal(one('ACME_PROJECT', 'A'.repeat(32))[0]!.shown, HIDDEN);
    const dup = checkSignInEnv([
      { name: 'ACME_REGION', value: 'a' },
      { name: 'ACME_REGION', value: 'b' },
    ]);
    assert.deepEqual(dup, [{ name: 'ACME_REGION', value: 'b', shown: '"b"' }]);
  });
});

describe('terminal sign-in arguments', () => {
  it('keeps plain arguments, refuses too many, too long, or with control characters', () => {
    assert.deepEqual(checkSignInArgs(['login', '--device']), ['login', '--device']);
    assert.deepEqual(checkSignInArgs(undefined), []);
    assert.throws(() => checkSignInArgs(Array.from({ length: 65 }, () => 'x')), /65 arguments/);
    assert.throws(() => checkSignInArgs(['a'.repeat(4097)]), /4,096/);
    assert.throws(() => checkSignInArgs(['a\0b']), /control or invisible/);
    assert.throws(() => checkSignInArgs(['--x\u200b']), /control or invisible/);
    assert.throws(() => checkSignInArgs(['a\tb']), /control or invisible/);
  });

  it('shows words quoted, a token-looking one hidden', () => {
    assert.equal(shownWord('--login'), '"--login"');
    assert.equal(shownWord('a b'), '"a b"');
    assert.equal(shownWord('--token=eyJhbGciOiJIUzI1NiJ9'), HIDDEN);
    assert.equal(shownWord('a\u202eb'), '"a\\u{202e}b"');
  });
});

describe('terminal sign-in in the user language', () => {
  it('refuses and confirms in German with a German L10n', () => {
    assert.throws(() => checkSignInEnv([{ name: 'NODE_OPTIONS', value: 'x' }], german), /Variable NODE_OPTIONS/);
    assert.throws(() => checkSignInArgs(['a\0b'], german), /Steuer- oder unsichtbare Zeichen/);
    const c = signInConfirmation(
      { agentName: 'Agent A', methodName: 'tty', command: '/bin/a', configuredArgs: [], extraArgs: [], vars: [], cwd: undefined },
      german,
    );
    assert.match(c.message, /Agent A/);
    assert.match(c.message, /Terminal/);
    assert.deepEqual(
      c.sections.map((s) => s.label),
      [
        'Befehlszeile (der konfigurierte Befehl des Agenten, dann die vom Agenten hinzugefügten Argumente)',
        'Vom Agenten hinzugefügte Argumente',
        'Vom Agenten gesetzte Variablen (Geheimnisse verborgen)',
        'Ordner',
      ],
    );
    assert.match(c.detail, /Ordner: keine/);
  });
});
