// The order a mutant's test files run in (scripts/mutant-stages.ts): files that start no sandbox or CLI first, the
// end-to-end ones (test/e2e/, the adversarial reviews') only where none of those caught it. Written out by hand.
import test from 'ava';
import { isEndToEnd, testStages } from '../../scripts/mutant-stages.js';

test('e2e and adversarial review folders are end to end; unit folders, and names merely like them, are not', (t) => {
  t.true(isEndToEnd('dist/test/e2e/cli.test.js'));
  t.true(isEndToEnd('dist/test/adversarial-s09f/place-s09f.test.js'));
  t.true(isEndToEnd('dist/test/adversarial21/x.test.js'));
  t.false(isEndToEnd('dist/test/host/executors/confine/shell-command-words.test.js'));
  t.false(isEndToEnd('dist/test/host/e2e-like.test.js'));
  t.false(isEndToEnd('dist/test/policy/adversarial-rules.test.js'));
});

test('the quick files form the first stage, the end-to-end ones the second; an empty stage is left out', (t) => {
  const unit = 'dist/test/host/executors/confine/shell-command-words.test.js';
  const e2e = 'dist/test/adversarial-s09f/place-s09f.test.js';
  t.deepEqual(testStages([e2e, unit]), [[unit], [e2e]]);
  t.deepEqual(testStages([unit]), [[unit]]);
  t.deepEqual(testStages([e2e]), [[e2e]]);
  t.deepEqual(testStages([]), []);
});
