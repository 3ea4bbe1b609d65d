// Records a run's wire traffic as NDJSON: one header line, then one line per message
// (`{"dir":"send"|"receive","msg":{…}}`, send = client → agent). Recordings go to a temp dir
// (ACP_INTEROP_RECORD_DIR, else <tmp>/acp-interop-recordings); `scrub` replaces run-specific
// paths and ports so a recording can be kept as a fixture in test/fixtures/recordings/.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface WireLine {
  dir: 'send' | 'receive';
  msg: unknown;
}

export function recordDir(): string {
  const dir = process.env.ACP_INTEROP_RECORD_DIR ?? path.join(os.tmpdir(), 'acp-interop-recordings');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Replacements applied to every string of a recording (longest first). */
export type Scrubs = [from: string, to: string][];

function scrubValue(v: unknown, scrubs: Scrubs): unknown {
  if (typeof v === 'string') {
    let s = v;
    for (const [from, to] of scrubs) if (from) s = s.split(from).join(to);
    return s;
  }
  if (Array.isArray(v)) return v.map((x) => scrubValue(x, scrubs));
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [scrubValue(k, scrubs) as string, scrubValue(x, scrubs)]));
  }
  return v;
}

export function scrub(lines: WireLine[], scrubs: Scrubs): WireLine[] {
  const sorted = [...scrubs].sort((a, b) => b[0].length - a[0].length);
  return lines.map((l) => scrubValue(l, sorted) as WireLine);
}

/** Writes `<dir>/<name>.ndjson`; returns the path. */
export function writeRecording(name: string, header: Record<string, unknown>, lines: WireLine[], scrubs: Scrubs): string {
  const file = path.join(recordDir(), `${name}.ndjson`);
  const body = [JSON.stringify({ recording: header }), ...scrub(lines, scrubs).map((l) => JSON.stringify(l))].join('\n');
  writeFileSync(file, `${body}\n`);
  return file;
}
