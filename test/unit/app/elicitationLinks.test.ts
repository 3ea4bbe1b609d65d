// A link shows where it goes: an elicitation link is shown with the host VS Code's URI parser (the one
// `vscode.env.openExternal` uses) would send the browser to, and a link whose real destination could
// differ from what is shown (user info, backslashes, percent-escapes or odd numbers in the host,
// control or space characters) or that is not https (http only to this machine) is never opened:
// its card (or notification) says why and the agent gets `cancel`.
import * as assert from 'node:assert/strict';
import { ElicitationBroker, type ElicitationUi } from '../../../src/app/elicitationBroker';
import { checkLink } from '../../../src/common/linkTarget';
import type { CancelToken } from '../../../src/protocol/api';
import { english } from '../../../src/common/l10n';
import { elicitationProblemWords } from '../../../src/ui/elicitationWords';
import { decodeElicitation } from '../../../src/protocol/common/elicitation';
import { SessionStore, sessionKey } from '../../../src/state/sessionStore';
import { Transcript, type ElicitationItem } from '../../../src/state/transcript';

const never: CancelToken = { isCancellationRequested: false, onCancellationRequested: () => ({ dispose: () => undefined }) };
const HIDDEN = "The agent's link was not opened: it hides its real destination (user name or backslash in the address).";

describe('elicitation links show where they go', () => {
  let store: SessionStore;
  let transcript: Transcript;
  let opened: string[];
  let warned: string[];
  let asked: number;
  let broker: ElicitationBroker;
  const key = sessionKey('agent', 's1');
  const ui: ElicitationUi = {
    askOutsideSession: () => {
      asked++;
      return Promise.resolve({ action: 'accept' });
    },
    openUrl: (u) => {
      opened.push(u);
      return Promise.resolve(true);
    },
    warn: (m) => warned.push(m),
    problemWords: (p) => elicitationProblemWords(p, english),
  };
  const card = (): ElicitationItem => {
    const s = transcript.session(key)!;
    const items = s.slice(s.firstIndex).filter((i): i is ElicitationItem => i.kind === 'elicitation');
    return items[items.length - 1]!;
  };
  beforeEach(() => {
    store = new SessionStore();
    store.applyEvent('agent', { sessionId: 's1', kind: 'session_info', title: 't' });
    transcript = new Transcript();
    opened = [];
    warned = [];
    asked = 0;
    broker = new ElicitationBroker(store, transcript, ui);
  });
  afterEach(() => broker.dispose());

  const link = (url: string, scoped = true) =>
    decodeElicitation({ ...(scoped ? { sessionId: 's1' } : { requestId: 7 }), mode: 'url', elicitationId: 'e1', url, message: 'Sign in' });

  for (const url of [
    'https://good.example\\@evil.example/',
    'https://good.example@evil.example/',
    'https://user:pass@evil.example/',
    'https://good%2eexample/',
    'https://good.example\\.evil.example/',
  ]) {
    it(`refuses ${JSON.stringify(url)}: the card says why, the agent gets cancel, nothing is opened`, async () => {
      const answer = broker.request('agent', 'Agent', link(url), never);
      assert.deepEqual(await answer, { action: 'cancel' });
      const c = card();
      assert.equal(c.state, 'cancelled');
      assert.equal(c.note, HIDDEN);
      assert.notEqual(c.host, 'good.example');
      await broker.answer(c.requestId, 'accept');
      assert.deepEqual(opened, []);
    });
  }

  it('refuses a hidden destination outside a session too: the notification says why, the user is never asked', async () => {
    assert.deepEqual(await broker.request('agent', 'Agent', link('https://good.example\\@evil.example/', false), never), { action: 'cancel' });
    assert.equal(asked, 0);
    assert.equal(warned.length, 1);
    assert.match(warned[0]!, /hides its real destination/);
    assert.deepEqual(opened, []);
  });

  it('refuses plain http to another machine, and shows and opens https with the host VS Code would use', async () => {
    assert.deepEqual(await broker.request('agent', 'Agent', link('http://auth.example.org/x'), never), { action: 'cancel' });
    assert.match(card().note ?? '', /not opened: it is not an https address/);
    const answer = broker.request('agent', 'Agent', link('HTTPS://Auth.Example.org:443/x?a=b'), never);
    assert.equal(card().host, 'auth.example.org');
    await broker.answer(card().requestId, 'accept');
    assert.deepEqual(await answer, { action: 'accept' });
    assert.deepEqual(opened, ['https://Auth.Example.org:443/x?a=b']);
  });
});

describe('checkLink', () => {
  const host = (u: string): string | undefined => {
    const c = checkLink(u);
    return c.ok ? c.host : undefined;
  };
  const why = (u: string): string => {
    const c = checkLink(u);
    return c.ok ? '' : c.reason;
  };

  it('shows the host of plain https links, lower case, with a port only when not the default', () => {
    assert.equal(host('https://auth.example.org/login?next=/a#b'), 'auth.example.org');
    assert.equal(host('HTTPS://AUTH.example.org'), 'auth.example.org');
    assert.equal(host('https://auth.example.org:8443/'), 'auth.example.org:8443');
    assert.equal(host('https://[2001:db8::1]/'), '[2001:db8::1]');
    assert.equal(host('https://auth.example.org/a\\b'), undefined, 'a backslash anywhere is refused');
    assert.deepEqual(checkLink('HTTPS://auth.example.org/x'), { ok: true, host: 'auth.example.org', url: 'https://auth.example.org/x' });
  });

  it('opens plain http only to this machine', () => {
    assert.equal(host('http://localhost:3000/cb'), 'localhost:3000');
    assert.equal(host('http://127.0.0.1:8080/'), '127.0.0.1:8080');
    assert.equal(host('http://[::1]:9/'), '[::1]:9');
    assert.match(why('http://auth.example.org/'), /not an https address/);
    assert.match(why('http://localhost.evil.example/'), /not an https address/);
  });

  it('refuses every address whose destination a reader could mistake', () => {
    const hidden = /hides its real destination/;
    for (const u of [
      'https://good.example\\@evil.example/',
      'https://good.example\\evil.example',
      'https:\\\\evil.example/',
      'https://good.example@evil.example/',
      'https://user:pass@evil.example/',
      'https://@evil.example/',
      'https://good.example%40evil.example/',
      'https://good%2eexample/',
      'https://0x7f.1/',
      'https://2130706433/',
      'https://[::0001]/',
    ])
      assert.match(why(u), hidden, u);
    for (const u of [
      'https://good.example\t.evil/',
      'https://good.example/\n',
      ' https://good.example/',
      'https://good.example/\u202e',
      'https://good .example/',
    ])
      assert.match(why(u), /control or space characters/, JSON.stringify(u));
    for (const u of ['https:evil.example', 'https:/evil.example', '//evil.example', 'evil.example', 'https://', 'https:///path'])
      assert.match(why(u), /not a complete web address|no host/, u);
    for (const u of ['javascript:alert(1)//', 'file:///etc/passwd', 'ftp://evil.example/', 'vscode://ext/x'])
      assert.match(why(u), /not an https address|not a complete web address/, u);
  });
});
