import assert from 'node:assert/strict';
import { parseAgentSettings } from '../../../src/agents/agentConfig';
import { redact } from '../../../src/agents/redact';
import { german } from '../l10n/german';

describe('acp.agents settings', () => {
  it('accepts valid entries with defaults and pins the protocol', () => {
    const r = parseAgentSettings(
      [
        { name: 'Codex', command: 'npx', args: ['@zed-industries/codex-acp'] },
        { name: 'Gemini', command: 'gemini', args: ['--experimental-acp'], protocol: '1', env: { A: 'b' } },
      ],
      true,
    );
    assert.deepEqual(r.problems, []);
    assert.equal(r.agents[0]!.id, 'agent:Codex');
    assert.equal(r.agents[0]!.protocol, 'auto');
    assert.deepEqual(r.agents[0]!.env, {});
    assert.equal(r.agents[1]!.protocol, 1);
  });

  it('turns v2 off for unpinned agents when offerV2 is false', () => {
    const r = parseAgentSettings(
      [
        { name: 'A', command: 'a' },
        { name: 'B', command: 'b', protocol: '2' },
      ],
      false,
    );
    assert.equal(r.agents[0]!.protocol, 1);
    assert.equal(r.agents[1]!.protocol, 2);
  });

  it('names the entry and the problem for invalid entries, and keeps the valid ones', () => {
    const r = parseAgentSettings(
      [{ name: 'NoCmd' }, { command: 'x' }, { name: 'Ok', command: 'ok', args: 'oops' }, { name: 'Fine', command: 'f' }, { name: 'Fine', command: 'g' }],
      true,
    );
    assert.deepEqual(
      r.agents.map((a) => a.name),
      ['Fine'],
    );
    assert.equal(r.problems.length, 4);
    assert.match(r.problems[0]!, /"NoCmd".*command/);
    assert.match(r.problems[1]!, /#2.*name/);
    assert.match(r.problems[2]!, /"Ok".*args/);
    assert.match(r.problems[3]!, /used twice/);
  });

  it("reports an entry's problems in the user's language (L10n)", () => {
    const r = parseAgentSettings([{ command: 'x' }, { name: 'Ok', command: 'ok', args: 'oops' }, 'x'], true, german);
    assert.equal(r.problems.length, 3);
    assert.match(r.problems[0]!, /#1.*braucht einen „name“/);
    assert.match(r.problems[1]!, /"Ok".*„args“ muss eine Liste von Zeichenketten sein/);
    assert.match(r.problems[2]!, /#3.*muss ein Objekt/);
  });

  it('rejects a non-list value', () => {
    assert.match(parseAgentSettings({}, true).problems[0]!, /must be a list/);
  });
});

describe('redaction', () => {
  it('hides env values, headers and credential-looking fields, at any depth', () => {
    const out = redact({
      method: 'terminal/create',
      params: { command: 'ls', env: [{ name: 'API_KEY', value: 'sk-123' }], nested: { apiKey: 'sk-9', token: 'abc', ok: 'visible' } },
      authMethods: [{ id: 'x', env: { OPENAI_API_KEY: 'sk-live' } }],
      headers: [{ name: 'Authorization', value: 'Bearer t' }],
    });
    const text = JSON.stringify(out);
    for (const secret of ['sk-123', 'sk-9', 'abc', 'sk-live', 'Bearer t']) assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
    assert.ok(text.includes('visible'));
    assert.ok(text.includes('API_KEY'), 'names are kept, values hidden');
  });

  it('hides secret flags in command lines and query values in URLs', () => {
    const out = JSON.stringify(
      redact({
        mcpServers: [
          { name: 'gh', command: 'mcp', args: ['--token', 'ghp_secret1', '--api-key=sk-secret2', '--verbose', 'plain'] },
          { name: 'web', url: 'https://u:pw-secret3@example.com/mcp?api_key=sk-secret4&x=1' },
        ],
      }),
    );
    for (const secret of ['ghp_secret1', 'sk-secret2', 'pw-secret3', 'sk-secret4']) assert.ok(!out.includes(secret), `${secret} leaked: ${out}`);
    assert.ok(out.includes('--verbose') && out.includes('plain'));
  });
});
