// Test-only wire recording. When the environment variable ACP_WIRE_RECORD_DIR is set (the test
// harnesses set it for the extension host; users never do), every wire message of a connection,
// both directions, is appended as NDJSON (`{"dir":"send"|"receive","msg":{…}}` per line) to a file
// of its own in that directory, named `<pid>-<n>-<agent>.ndjson`. The harness then validates every
// message the client sent against the official schemas (test/harness/lib/outbound-recordings.mjs).
// Raw traffic, secrets included: that is why it exists only for tests. Synchronous appends keep the
// lines in wire order and complete when the extension host exits; acceptable only because it is
// test-only. Unset (always, outside tests): no recorder, nothing added to the wire hook.
import * as fs from 'node:fs';
import * as path from 'node:path';

export type WireHook = (direction: 'send' | 'receive', message: unknown) => void;

let connections = 0;

/** A recorder for one connection of `agentName`, or undefined when recording is off. */
export function wireRecorder(agentName: string, dir = process.env.ACP_WIRE_RECORD_DIR): WireHook | undefined {
  if (!dir) return undefined;
  const file = path.join(dir, `${process.pid}-${++connections}-${agentName.replace(/[^\w.-]+/g, '_').slice(0, 40)}.ndjson`);
  try {
    fs.mkdirSync(dir, { recursive: true });
  } catch {
    return undefined;
  }
  return (direction, message) => {
    try {
      fs.appendFileSync(file, `${JSON.stringify({ dir: direction, msg: message })}\n`);
    } catch {
      // The directory went away (the harness cleaned up): the wire must not fail for a test aid.
    }
  };
}
