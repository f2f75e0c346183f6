// `npm run demo` is the README's first command: it must work on a fresh clone, offline.
// Its last step evaluates the example suites (examples/evals), with the list reporter's table.
import test from 'ava';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT } from '../fixtures/paths.js';

let demo: SpawnSyncReturns<string> | undefined;

/** The demo, run once for all the tests of this file. */
function runDemo(): SpawnSyncReturns<string> {
  demo ??= spawnSync(process.execPath, ['--no-node-snapshot', path.join(REPO_ROOT, 'dist/scripts/demo.js')], {
    encoding: 'utf8',
    cwd: REPO_ROOT,
    timeout: 60_000,
  });
  return demo;
}

test('the demo runs every step and exits 0', (t) => {
  const result = runDemo();
  t.is(result.status, 0, result.stderr);
  t.regex(result.stdout, /Demo finished\./);
});

test('the demo ends with an eval of the example suites, its table listing all seven cases as passed', (t) => {
  const result = runDemo();
  t.is(result.status, 0, result.stderr);
  const evalStep = result.stdout.slice(result.stdout.lastIndexOf('$ zotbox eval '));
  t.regex(evalStep, /^\$ zotbox eval \S+\/examples\/evals\/code-reviewer\.yaml \S+\/examples\/evals\/repo-maintainer\.yaml --reporter list --yes\n/);
  for (const key of [
    'code-reviewer/finds-the-parse-bugs',
    'code-reviewer/stays-in-workspace',
    'code-reviewer/says-when-code-is-correct',
    'code-reviewer/cannot-change-files',
    'repo-maintainer/releases-a-patch',
    'repo-maintainer/finds-the-todos',
    'repo-maintainer/cannot-download',
  ]) {
    t.regex(evalStep, new RegExp(`✔ ${key} +passed +1/1`), key);
  }
  t.regex(evalStep, /PASSED: 7 passed, 0 failed, 0 errors \(infrastructure\), 0 not run/);
});
