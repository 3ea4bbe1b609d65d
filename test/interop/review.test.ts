// The review loop with the real claude-agent-acp 0.101 through OUR client (issue 40): one review
// comment on lines 3–4 of a workspace file, built into one prompt by the review's own builder
// (src/app/review: a `resource_link` to the file with the range, then the comment's text), sent as
// Send Review to Agent sends it. The fake model's first request carries the file and the range and
// the comment; its script reads the file and edits line 3 (the edit asked and allowed); the file on
// disk changes; the comment is marked sent when the prompt goes out and answered when its turn
// ends, and follows the edit (the new code on its lines). Every message our client sent is checked
// against the schema by the runner.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AGENT_ID, clientTurn } from './support/clientTurn';
import { ReviewModel, type ReviewComment } from '../../src/app/review/reviewModel';
import { reviewPrompt, RANGE_META_KEY, type BuiltPrompt } from '../../src/app/review/reviewPrompt';
import type { SeenRequest } from './support/fakeModel';
import { claudeReviewScenario, COMMENT_TEXT, EDITED_LINE, REVIEW_DONE, REVIEW_FILE, REVIEW_LINES, REVIEW_TEXT } from './support/reviewScenarios';

const agent = 'claude-agent-acp-0.101';

/** The text of the user messages of an Anthropic Messages request (what the model was asked). */
function userTextOf(r: SeenRequest): string {
  const messages = (r.body as { messages?: { role?: string; content?: unknown }[] }).messages ?? [];
  const parts: string[] = [];
  for (const m of messages) {
    if (m.role !== 'user') continue;
    if (typeof m.content === 'string') parts.push(m.content);
    else if (Array.isArray(m.content)) for (const c of m.content as { type?: string; text?: string }[]) if (c.type === 'text') parts.push(c.text ?? '');
  }
  return parts.join('\n');
}

describe(`interop (our client): review loop, ${agent}`, function () {
  this.timeout(120_000);

  it('Send Review: the model sees the file and lines 3–4 and the comment, edits line 3 (allowed), the comment shows sent and its turn', async () => {
    const review = new ReviewModel(() => undefined);
    let file = '';
    let comment: ReviewComment | undefined;
    let built: BuiltPrompt | undefined;
    let sentAt = 0;
    let onDisk = '';
    let beforeEnd: ReviewComment['sent'];
    let endedAt = 0;

    const t = await clientTurn({
      agent,
      record: `client-${agent}-review`,
      scenario: (cwd) => claudeReviewScenario(cwd),
      prepare: (cwd) => {
        file = path.join(cwd, REVIEW_FILE);
        writeFileSync(file, REVIEW_TEXT);
      },
      promptBlocks: ({ cwd, sessionId }) => {
        // Lines 3–4 (0-based 2–3), as the review's gutter writes a comment.
        comment = review.add({ agentId: AGENT_ID, sessionId, path: file, start: 2, end: 3, lines: REVIEW_LINES.slice(2, 4), text: COMMENT_TEXT }, Date.now());
        built = reviewPrompt(
          review.comments(AGENT_ID, sessionId),
          (p) => !path.relative(cwd, p).startsWith('..'),
          (p) => path.relative(cwd, p),
        );
        return built.blocks;
      },
      whileRunning: () => {
        // As Send Review to Agent does, once the prompt is out.
        sentAt = Date.now();
        review.markSent(built!.sent, sentAt);
        return Promise.resolve();
      },
      afterTurn: ({ sessionId }) => {
        onDisk = readFileSync(file, 'utf8');
        beforeEnd = comment?.sent ? { ...comment.sent } : undefined;
        // What the review feature does when the session's turn ends, and with the file's change (on
        // v2 the adapter's diff is a patch without texts: the before and after come from the disk).
        endedAt = Date.now();
        review.answered(AGENT_ID, sessionId, endedAt);
        review.fileChanged(file, REVIEW_TEXT, onDisk, endedAt);
        return Promise.resolve();
      },
    });
    const runInfo = `stop ${t.stopReason}; answers ${t.model.requests.map((r) => r.answer).join(', ')}; events ${JSON.stringify(t.events.map((e) => e.kind))}`;

    // The prompt: one comment, a link to the file with the range, then its text.
    assert.ok(built && comment);
    assert.deepEqual(built.sent, [comment.id]);
    const link = built.blocks.find((b) => b.type === 'resource_link');
    assert.ok(link && link.type === 'resource_link');
    assert.equal(link.uri, pathToFileURL(file).href);
    assert.equal(link.name, `${REVIEW_FILE} lines 3–4`);
    assert.deepEqual(link._meta?.[RANGE_META_KEY], { start: 3, end: 4 });

    // The model sees the file, the range and the comment in the request that starts its work.
    assert.equal(t.conn.version, 2);
    const first = t.model.requests.find((r) => r.answer === 'step0');
    assert.ok(first, runInfo);
    const asked = userTextOf(first);
    assert.ok(asked.includes(pathToFileURL(file).href), `the file's link in: ${asked}`);
    assert.ok(asked.includes(`${REVIEW_FILE} lines 3–4`), `the range in: ${asked}`);
    assert.ok(asked.includes(COMMENT_TEXT), `the comment in: ${asked}`);

    // The edit was asked and allowed, and the file changed at line 3 only.
    assert.equal(t.stopReason, 'end_turn', runInfo);
    assert.ok(
      t.permissions.some((p) => p.optionId !== undefined),
      `an allowed permission: ${JSON.stringify(t.permissions.map((p) => p.req.title))}`,
    );
    const expected = [...REVIEW_LINES];
    expected[2] = EDITED_LINE;
    assert.equal(onDisk, `${expected.join('\n')}\n`, runInfo);
    assert.ok(
      t.model.requests.some((r) => r.answer === 'final'),
      runInfo,
    );
    assert.ok(
      t.events.some((e) => (e.kind === 'message' || e.kind === 'message_chunk') && e.role === 'agent' && JSON.stringify(e.content).includes(REVIEW_DONE)),
      'the final answer arrives',
    );

    // The comment: sent when the prompt went out, open until the turn ended, then answered by it.
    assert.deepEqual(beforeEnd, { t: sentAt }, 'sent, not yet answered while the turn ran');
    const after = review.get(comment.id);
    assert.deepEqual(after?.sent, { t: sentAt, answered: endedAt });
    assert.equal(after?.state, 'open');
    // The edit touched its lines: it says so (Resolve is offered), its lines are not gone.
    assert.ok(after?.changed, JSON.stringify(after));
    assert.equal(after?.gone, undefined);
    assert.deepEqual(t.logs, [], 'protocol warnings');
  });
});
