// The test-only wire recording behind ACP_WIRE_RECORD_DIR (src/agents/wireRecorder.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { wireRecorder } from '../../../src/agents/wireRecorder';

describe('wire recorder (ACP_WIRE_RECORD_DIR)', () => {
  it('is off without a directory', () => {
    assert.equal(wireRecorder('a', ''), undefined);
    assert.equal(wireRecorder('a', undefined), undefined);
  });

  it('appends both directions as NDJSON, one file per connection', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-wire-test-')), 'sub');
    try {
      const first = wireRecorder('Demo Agent/x', dir)!;
      const second = wireRecorder('Demo Agent/x', dir)!;
      first('send', { jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
      first('receive', { jsonrpc: '2.0', id: 0, result: { protocolVersion: 2 } });
      second('send', { jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } });
      const files = fs.readdirSync(dir).sort();
      assert.equal(files.length, 2);
      for (const f of files) assert.match(f, new RegExp(`^${process.pid}-\\d+-Demo_Agent_x\\.ndjson$`));
      const lines = files.map((f) =>
        fs
          .readFileSync(path.join(dir, f), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as unknown),
      );
      assert.deepEqual(
        lines
          .flat()
          .map((l) => (l as { dir: string }).dir)
          .sort(),
        ['receive', 'send', 'send'],
      );
      assert.deepEqual(lines.find((l) => l.length === 2)?.[1], { dir: 'receive', msg: { jsonrpc: '2.0', id: 0, result: { protocolVersion: 2 } } });
    } finally {
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });
});
