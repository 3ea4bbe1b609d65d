// The questions ClientConsent asks (terminal commands, writes to files that run code later) are in
// the user's words: the card title, folder line and option labels come from its L10n.
import assert from 'node:assert/strict';
import { ClientConsent } from '../../../src/app/clientConsent';
import type { PermissionBroker } from '../../../src/app/permissionBroker';
import type { PermissionRequest } from '../../../src/protocol/domain';
import type { SessionStore } from '../../../src/state/sessionStore';
import { english, type L10n } from '../../../src/common/l10n';
import { german } from '../l10n/german';

function consent(l10n: L10n): { c: ClientConsent; asked: PermissionRequest[] } {
  const asked: PermissionRequest[] = [];
  const none = () => ({ dispose: () => undefined });
  const broker = {
    onDidDecide: none,
    rules: [],
    request: (_a: string, _n: string, req: PermissionRequest) => (asked.push(req), Promise.resolve({ outcome: 'cancelled' })),
  } as unknown as PermissionBroker;
  const store = { onDidChange: none, session: () => undefined } as unknown as SessionStore;
  return { c: new ClientConsent(broker, store, (id) => id, l10n), asked };
}

describe('client consent questions', () => {
  it('asks in English by default', async () => {
    const { c, asked } = consent(english);
    assert.equal(await c.approveCommand({ agentId: 'a', sessionId: 's', command: 'ls', args: ['-l'], cwd: '/ws', env: {} }), false);
    assert.equal(asked[0]!.title, 'Run a command in a terminal: ls -l');
    assert.equal(asked[0]!.description, 'Folder: /ws');
    assert.deepEqual(
      asked[0]!.options.map((o) => o.name),
      ['Allow', 'Always allow', 'Reject'],
    );
    await c.confirmWrite({ agentId: 'a', sessionId: 's', path: '/ws/.git/config', reason: 'why' });
    assert.equal(asked[1]!.title, 'Write /ws/.git/config');
    assert.equal(asked[1]!.description, 'why Allow only if you expect this change.');
  });

  it("asks in the user's language", async () => {
    const { c, asked } = consent(german);
    await c.approveCommand({ agentId: 'a', sessionId: 's', command: 'ls', args: [], cwd: '/ws', env: { X: '1' } });
    assert.match(asked[0]!.title!, /^Einen Befehl in einem Terminal ausführen: ls mit X="1"$/);
    assert.equal(asked[0]!.description, 'Ordner: /ws');
    assert.deepEqual(
      asked[0]!.options.map((o) => o.name),
      ['Erlauben', 'Ablehnen'],
    );
    await c.confirmWrite({ agentId: 'a', sessionId: 's', path: '/ws/l', realPath: '/ws/.git/config', reason: 'warum' });
    assert.equal(asked[1]!.title, '/ws/l (→ /ws/.git/config) schreiben');
    assert.match(asked[1]!.description!, /^warum /);
  });
});
