// Redaction for the log and the verbose trace: the examples, and properties that a
// generated secret never survives in any position where it is recognizable, while ordinary
// command lines pass unchanged.
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { redact } from '../../../src/agents/redact';
import { redactArgList, redactText } from '../../../src/agents/redactText';

/** Fails when `secret`, or any 8-character piece of it, is still in `out`. */
function assertGone(out: string, secret: string, input: string): void {
  for (let i = 0; i + 8 <= secret.length; i++) {
    assert.ok(!out.includes(secret.slice(i, i + 8)), `"${secret}" leaked from ${JSON.stringify(input)}: ${JSON.stringify(out)}`);
  }
}

// ------------------------------------------------------------------ generators

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const chars = (alphabet: string, min: number, max: number) => fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
/** A secret in a position that names it (after a flag, in a header, in user info, a query value). */
const secret = chars(`${ALNUM}-._~`, 8, 40);
/** A key of a well-known format (recognized anywhere). */
const prefixedKey = fc
  .tuple(fc.constantFrom('sk-', 'sk-proj-', 'ghp_', 'github_pat_', 'glpat-', 'xoxb-', 'xoxp-', 'hf_', 'npm_', 'AIza', 'AKIA'), chars(ALNUM, 20, 40))
  .map(([p, b]) => p + b);
/** A key recognizable by its shape alone in a URL path. */
const keyShaped = fc.oneof(
  prefixedKey,
  fc.tuple(chars('0123456789', 3, 10), chars(`${ALNUM}-_`, 3, 40)).map(([d, b]) => `bot${d}:${b}`),
  chars('0123456789abcdef', 32, 64),
  // high-entropy: letters, a digit, then 19+ more letters and digits (a run mixing both)
  fc.tuple(chars('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ', 4, 4), chars('0123456789', 1, 1), chars(ALNUM, 19, 40)).map((p) => p.join('')),
);
/** Ordinary words around the secret (none 8+ characters, so none matches a piece of it). */
const words = fc
  .array(fc.constantFrom('npm', 'test', 'ls', '-la', 'git', 'push', 'echo', 'hi', '--verbose', '-n', '3', 'src/a.ts', '&&', '|', 'cat'), { maxLength: 4 })
  .map((w) => w.join(' '));
const secretFlag = fc.constantFrom(
  '--key',
  '--token',
  '--api-key',
  '--apikey',
  '--password',
  '--secret',
  '--auth-token',
  '--access-token',
  '--client-secret',
  '-password',
  '--private-key',
);
const credentialHeader = fc.constantFrom('Authorization', 'authorization', 'Proxy-Authorization', 'Cookie', 'X-Api-Key', 'X-Auth-Token', 'x-goog-api-key');
const scheme = fc.constantFrom('', 'Bearer ', 'Basic ', 'Token ');
const host = fc.constantFrom('api.example.com', 'localhost:8080', '10.0.0.1', 'h.io');

describe('redaction: examples from the issue', () => {
  const examples: [string, string, string[]][] = [
    ['a --key flag', 'mcp-server --key VALUE123abc --port 3', ['VALUE123abc']],
    ['flags with and without =', 'tool --token=t0ken-1 --api-key ak-2 --password pw-3 --secret s-4', ['t0ken-1', 'ak-2', 'pw-3', 's-4']],
    ['-H with a bearer token', 'curl -H "Authorization: Bearer eyabc.def.ghi123" https://h', ['eyabc.def.ghi123']],
    ['--header= with an API key', "curl '--header=X-Api-Key: abc123def' https://h", ['abc123def']],
    ['a bot token in the path', 'https://api.telegram.org/bot123:ABC/sendMessage', ['123:ABC']],
    ['user info', 'git clone https://user:pass@host/repo.git', ['user:pass']],
    ['a key in the path', 'GET https://api.example.com/v1/keys/sk-proj-0123456789abcdefghij', ['sk-proj-0123456789abcdefghij']],
    ['query values', 'https://h/x?api_key=QK-1&sig=QS-2#access_token=QF-3', ['QK-1', 'QS-2', 'QF-3']],
    ['an env assignment', 'OPENAI_API_KEY=sk-live-0123456789 npm start', ['sk-live-0123456789']],
    ['a cookie header in text', 'Cookie: sid=C00KIE1; theme=dark', ['C00KIE1']],
    ['a JSON body', `curl -d '{"password":"hunter2","user":"bob"}' https://h`, ['hunter2']],
    ['curl -u', 'curl -u alice:s3cret https://h', ['s3cret']],
  ];
  for (const [name, input, secrets] of examples) {
    it(name, () => {
      const out = redactText(input);
      for (const s of secrets) assert.ok(!out.includes(s), `${s} leaked: ${out}`);
    });
  }

  it('keeps names, schemes and ordinary text readable', () => {
    assert.equal(
      redactText('curl -H "Authorization: Bearer abcdefgh123" https://api.example.com/v1/x'),
      'curl -H "Authorization: Bearer ***" https://api.example.com/v1/x',
    );
    assert.equal(redactText('tool --token X1 --verbose file.txt'), 'tool --token *** --verbose file.txt');
    assert.equal(redactText('https://h/x?api_key=K&page=2'), 'https://h/x?api_key=***&page=***');
    assert.equal(redactText('git commit --author "Ann <a@b.c>" -m "the bearer of news"'), 'git commit --author "Ann <a@b.c>" -m "the bearer of news"');
    assert.equal(redactText('https://example.com/blog/2024-01-15-release-notes-summary'), 'https://example.com/blog/2024-01-15-release-notes-summary');
    assert.equal(redactText('Authorization: Basic dXNlcjpwYXNz\nnext line'), 'Authorization: Basic ***\nnext line');
  });

  it('redacts argument lists across arguments (a value with spaces is one argument)', () => {
    assert.deepEqual(redactArgList(['-H', 'Authorization: Bearer tok-123456', '--token', 'two words', '--header=Cookie: s=1', 'plain']), [
      '-H',
      'Authorization: Bearer ***',
      '--token',
      '***',
      '--header=Cookie: ***',
      'plain',
    ]);
  });

  it('redacts wire messages: args, env, headers, secret fields, strings at any depth; ACP fields stay', () => {
    const msg = {
      method: 'session/new',
      params: {
        sessionId: 'sess-1',
        authMethods: [{ id: 'oauth' }],
        usage: { inputTokens: 5 },
        mcpServers: [
          { name: 'gh', command: 'mcp', args: ['--token', 'ghp-secret-1'], env: [{ name: 'GH', value: 'ghp-secret-2' }] },
          { name: 'web', url: 'https://u:pw-secret-3@h/mcp', headers: [{ name: 'Authorization', value: 'Bearer secret-4' }] },
        ],
        rawInput: { command: 'curl -H "X-Api-Key: secret-5" https://h', nested: { apiKey: 'secret-6' } },
      },
    };
    const out = JSON.stringify(redact(msg));
    for (let i = 1; i <= 6; i++) assert.ok(!out.includes(`secret-${i}`), `secret-${i} leaked: ${out}`);
    assert.ok(out.includes('"sessionId":"sess-1"') && out.includes('"oauth"') && out.includes('"inputTokens":5'), out);
  });

  it('never shows a value nested deeper than its limit', () => {
    let v: unknown = 'Bearer deep-secret-1';
    for (let i = 0; i < 1000; i++) v = { x: v };
    const out = JSON.stringify(redact(v));
    assert.ok(!out.includes('deep-secret-1'));
    assert.ok(out.includes('nested too deep'));
  });
});

describe('redaction: properties', () => {
  it('a secret after a secret-looking flag never survives (text and argument lists)', () => {
    fc.assert(
      fc.property(words, secretFlag, secret, words, fc.boolean(), (before, flag, s, after, eq) => {
        const input = `${before} ${flag}${eq ? '=' : ' '}${s} ${after}`;
        assertGone(redactText(input), s, input);
        const args = [...before.split(' '), ...(eq ? [`${flag}=${s}`] : [flag, s]), ...after.split(' ')].filter(Boolean);
        assertGone(redactArgList(args).join(' '), s, args.join(' '));
      }),
      { numRuns: 400 },
    );
  });

  it('a credential header value never survives (-H, --header=, quoted, in text, as arguments)', () => {
    fc.assert(
      fc.property(words, credentialHeader, scheme, secret, fc.constantFrom('"', "'"), fc.nat(3), (before, name, sch, s, q, form) => {
        const value = `${name}: ${sch}${s}`;
        const input = [
          `${before} curl -H ${q}${value}${q} https://h`,
          `${before} curl ${q}--header=${value}${q}`,
          `${before}\n${value}\nnext`,
          `${before} curl -H${q}${name}:${sch}${s}${q}`,
        ][form] as string;
        assertGone(redactText(input), s, input);
        assertGone(redactArgList(['curl', '-H', value, 'https://h']).join(' '), s, value);
      }),
      { numRuns: 400 },
    );
  });

  it('a secret in a URL never survives: user info, query values, fragment values', () => {
    fc.assert(
      fc.property(words, fc.constantFrom('https', 'http', 'wss', 'ftp', 'git+ssh'), host, secret, fc.nat(3), (before, sc, h, s, form) => {
        const url = [`${sc}://user:${s}@${h}/p`, `${sc}://${s}@${h}`, `${sc}://${h}/p?x=1&token=${s}&y=2`, `${sc}://${h}/cb#access_token=${s}&state=1`][
          form
        ] as string;
        for (const input of [`${before} ${url}`, `${before} "${url}"`, `url=(${url})`]) assertGone(redactText(input), s, input);
      }),
      { numRuns: 400 },
    );
  });

  it('a key-shaped URL path segment never survives', () => {
    fc.assert(
      fc.property(words, host, keyShaped, (before, h, k) => {
        const input = `${before} https://${h}/v1/${k}/send?x`;
        assertGone(redactText(input), k, input);
      }),
      { numRuns: 400 },
    );
  });

  it('a key of a known format never survives anywhere in text', () => {
    fc.assert(
      fc.property(words, prefixedKey, fc.constantFrom('', '"', '(', 'key='), (before, k, lead) => {
        const input = `${before} ${lead}${k}${lead === '"' ? '"' : lead === '(' ? ')' : ''}.`;
        assertGone(redactText(input), k, input);
      }),
      { numRuns: 400 },
    );
  });

  it('ordinary command lines pass unchanged', () => {
    fc.assert(
      fc.property(words, (w) => {
        assert.equal(redactText(w), w);
        assert.deepEqual(redactArgList(w.split(' ')), w.split(' '));
      }),
      { numRuns: 200 },
    );
  });

  it('runs in linear time on long hostile text (no backtracking)', () => {
    const n = 200_000;
    for (const input of [
      '-H '.repeat(n),
      ':'.repeat(n * 3),
      `https://${'a'.repeat(n)}`,
      `${'a=b&'.repeat(n)}`,
      '"password":'.repeat(n / 2),
      `${'sk-'.repeat(n)}`,
    ]) {
      const out = redactText(input);
      assert.ok(out.length <= input.length * 2);
    }
  });
});
