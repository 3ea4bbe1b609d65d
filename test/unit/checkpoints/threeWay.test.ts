// threeWay: the current text with the change from base to wanted applied (git merge-file), clean
// when the two changes touch different lines, with conflict markers and their count when not.
import assert from 'node:assert/strict';
import { GitMissingError, threeWay } from '../../../src/checkpoints/shadowRepo';

describe('Checkpoints: threeWay', () => {
  it('applies the change from base to wanted onto the current text when they do not overlap', async () => {
    const base = 'one\ntwo\nthree\nfour\nfive\n';
    const current = 'one\ntwo\nthree\nfour\nfive, edited later\n';
    const wanted = 'ONE\ntwo\nthree\nfour\nfive\n';
    assert.deepEqual(await threeWay('git', base, current, wanted), { text: 'ONE\ntwo\nthree\nfour\nfive, edited later\n', conflicts: 0 });
  });

  it('marks and counts conflicts when both changed the same lines', async () => {
    const middle = '1\n2\n3\n4\n5\n6\n7\n8\n';
    const base = `a\nb\n${middle}f\ng\n`;
    const current = `a\nB now\n${middle}F now\ng\n`;
    const wanted = `a\nb wanted\n${middle}f wanted\ng\n`;
    const r = await threeWay('git', base, current, wanted);
    assert.equal(r.conflicts, 2);
    assert.match(r.text, /<<<<<<< current\nB now\n=======\nb wanted\n>>>>>>> wanted\n/);
  });

  it('says git is missing', async () => {
    await assert.rejects(threeWay('/nonexistent/git', 'a', 'b', 'c'), GitMissingError);
  });
});
