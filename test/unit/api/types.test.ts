// The public API's types ship as api/acp-plans.d.ts for other extensions: it must be exactly
// src/api/types.ts (types only, no imports), so the two can never drift apart.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';

describe('Public API types', () => {
  const root = process.cwd();
  const source = readFileSync(path.join(root, 'src/api/types.ts'), 'utf8');

  it('api/acp-plans.d.ts is a copy of src/api/types.ts', () => {
    assert.equal(readFileSync(path.join(root, 'api/acp-plans.d.ts'), 'utf8'), source, 'copy src/api/types.ts to api/acp-plans.d.ts');
  });

  it('holds types only: no imports, no values', () => {
    assert.doesNotMatch(source, /^\s*import\s/m, 'no imports (other extensions copy this file alone)');
    assert.doesNotMatch(source, /^export\s+(const|let|var|function|class|enum)\s/m, 'no values in a .d.ts');
  });
});
