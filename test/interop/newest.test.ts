// scratch
import { clientTurn } from './support/clientTurn';
import { codexScenario, claudeScenario } from './support/scenarios';

function dump(name: string, t: Awaited<ReturnType<typeof clientTurn>>) {
  const kinds = new Map<string, number>();
  for (const l of t.wire) {
    const m = l.msg as { method?: string; params?: { update?: { sessionUpdate?: string } }; id?: unknown };
    const k = `${l.dir} ${m.method ?? 'response'}${m.params?.update?.sessionUpdate ? `:${m.params.update.sessionUpdate}` : ''}`;
    kinds.set(k, (kinds.get(k) ?? 0) + 1);
  }
  console.log(name, 'v', t.conn.version, t.conn.agentName, 'stop', t.stopReason, 'logs', t.logs);
  console.log([...kinds].map(([k, n]) => `${k} x${n}`).join('\n'));
  console.log('plans', JSON.stringify(t.store.plans('interop', t.sessionId).map((p) => p.plan)));
  console.log('perms', JSON.stringify(t.permissions.map((p) => ({ title: p.req.title, options: p.req.options, chosen: p.optionId }))));
  console.log('files', t.files, 'config', JSON.stringify(t.configOptions.map((c) => [c.id, c.kind === 'select' ? c.options.map((o) => o.value) : c.kind])));
}

describe('scratch', function () {
  this.timeout(120_000);
  it('codex 2.6 classic', async () => {
    const t = await clientTurn({ agent: 'codex-acp-2.6', scenario: () => codexScenario(), record: 'scratch-codex26' });
    dump('codex26', t);
  });
  it('claude 0.101', async () => {
    const t = await clientTurn({ agent: 'claude-agent-acp-0.101', scenario: (cwd) => claudeScenario(cwd, 'plain-tools'), record: 'scratch-claude101' });
    dump('claude101', t);
  });
});
