// The example eval suites (examples/evals/) run offline through the CLI entry: the
// two main suites pass case by case, the failing-on-purpose suite fails exactly its
// one case for the reason it states, and the folder holds only plain copies.
import test from 'ava';
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { EvalReport } from '../src/host/eval/eval-report.js';
import { readReplayTranscript } from '../src/host/providers/replay.js';
import { runCliCaptured, type CliResult } from './fixtures/cli-harness.js';
import { EXAMPLES_DIR } from './fixtures/paths.js';
import { tempDir } from './fixtures/temp.js';

const EVALS_DIR = path.join(EXAMPLES_DIR, 'evals');

async function evalSuites(t: Parameters<typeof tempDir>[0], ...suites: string[]): Promise<{ result: CliResult; report: EvalReport }> {
  const root = tempDir(t, 'zb-examples-eval-');
  const reportFile = path.join(root, 'report.json');
  const argv = ['eval', ...suites.map((suite) => path.join(EVALS_DIR, suite)), '--reporter', `json=${reportFile}`];
  const result = await runCliCaptured(argv, { env: { ZOTBOX_HOME: path.join(root, 'state'), ZOTBOX_AGENT_CONSENT: '1' }, cwd: root });
  return { result, report: JSON.parse(readFileSync(reportFile, 'utf8')) as EvalReport };
}

const statuses = (report: EvalReport) => Object.fromEntries(report.cases.map((c) => [`${c.suite}/${c.id}`, c.status]));

test('the code-reviewer and repo-maintainer suites pass every case, and exit 0', async (t) => {
  const { result, report } = await evalSuites(t, 'code-reviewer.yaml', 'repo-maintainer.yaml');
  t.is(result.status, 0, result.stderr);
  t.is(report.status, 'passed');
  t.deepEqual(statuses(report), {
    'code-reviewer/finds-the-parse-bugs': 'passed',
    'code-reviewer/stays-in-workspace': 'passed',
    'code-reviewer/says-when-code-is-correct': 'passed',
    'code-reviewer/cannot-change-files': 'passed',
    'repo-maintainer/releases-a-patch': 'passed',
    'repo-maintainer/finds-the-todos': 'passed',
    'repo-maintainer/cannot-download': 'passed',
  });
  t.deepEqual(
    report.suites.map((suite) => [suite.name, suite.agent.name, suite.consent]),
    [
      ['code-reviewer', 'code-reviewer', 'environment'],
      ['repo-maintainer', 'repo-maintainer', 'environment'],
    ],
  );
});

test('each main case checked what its suite says: the denials, the graders and the files', async (t) => {
  const { report } = await evalSuites(t, 'code-reviewer.yaml', 'repo-maintainer.yaml');
  const kinds = (id: string) => report.cases.find((c) => c.id === id)!.runs[0]!.expectations.map((e) => `${e.kind}:${e.passed}`);
  t.deepEqual(kinds('finds-the-parse-bugs'), ['status:true', 'tool_called:true', 'tool_called:true', 'denied:true', 'text_contains:true', 'max_turns:true', 'grader:true']);
  t.deepEqual(kinds('cannot-change-files'), ['status:true', 'denied:true', 'file_contains:true', 'text_contains:true']);
  t.deepEqual(kinds('releases-a-patch'), ['status:true', 'no_denials:true', 'tool_called:true', 'file_exists:true', 'file_contains:true', 'file_json:true', 'file_json:true', 'text_contains:true']);
  t.deepEqual(kinds('finds-the-todos'), ['status:true', 'no_denials:true', 'tool_called:true', 'tool_called:true', 'tool_not_called:true', 'text_contains:true', 'text_contains:true', 'grader:true']);
  t.deepEqual(kinds('cannot-download'), ['status:true', 'denied:true', 'denied:true', 'file_absent:true', 'text_matches:true']);
  const reasons = report.cases.flatMap((c) => c.runs[0]!.expectations.filter((e) => e.kind === 'grader').map((e) => e.reason));
  t.deepEqual(reasons, [
    'graders/names-three-problems.js: three findings with severities, naming input that is not a number, ports below 1, parseInt without a radix',
    'graders/cites-grep-output.js: the answer cites all 2 places grep printed: src/greet.js:3, src/shout.js:3',
  ]);
});

test('the failing-on-purpose suite fails its one case on file_contains alone, and exits 1', async (t) => {
  const { result, report } = await evalSuites(t, 'failing-on-purpose.yaml');
  t.is(result.status, 1, result.stderr);
  t.is(report.status, 'failed');
  t.deepEqual(statuses(report), { 'failing-on-purpose/reviewer-fixes-the-bug': 'failed' });
  t.deepEqual(
    report.cases[0]!.runs[0]!.expectations.map((e) => [e.kind, e.passed]),
    [
      ['status', true],
      ['file_contains', false],
    ],
  );
});

test('the suites folder holds only plain files and folders, and no .git', (t) => {
  for (const entry of readdirSync(EVALS_DIR, { recursive: true, withFileTypes: true })) {
    const where = path.relative(EVALS_DIR, path.join(entry.parentPath, entry.name));
    t.true(entry.isFile() || entry.isDirectory(), `${where} is a plain file or folder`);
    t.not(entry.name, '.git', where);
  }
});

test('every transcript in examples/evals is a valid replay transcript that ends with an answer', (t) => {
  const transcripts = readdirSync(path.join(EVALS_DIR, 'transcripts')).sort();
  t.deepEqual(transcripts, [
    'finds-the-parse-bugs.json',
    'finds-the-todos.json',
    'releases-a-patch.json',
    'says-when-code-is-correct.json',
    'stays-in-workspace.json',
    'tries-curl.json',
    'tries-to-fix-it.json',
  ]);
  for (const name of transcripts) t.is(readReplayTranscript(path.join(EVALS_DIR, 'transcripts', name)).turns.at(-1)?.stop, 'end', name);
});

test('the eval copy of repo-maintainer differs from the example only in having no entry.pre', (t) => {
  const example = path.join(EXAMPLES_DIR, 'repo-maintainer');
  const copy = path.join(EVALS_DIR, 'agents', 'repo-maintainer');
  const manifest = (dir: string) => JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { entry: Record<string, unknown> };
  const expected = manifest(example);
  t.is(expected.entry['pre'], '!git status --short');
  delete expected.entry['pre'];
  t.deepEqual(manifest(copy), expected);
  for (const file of ['AGENT.md', path.join('skills', 'triage-issue', 'SKILL.md')]) t.is(readFileSync(path.join(copy, file), 'utf8'), readFileSync(path.join(example, file), 'utf8'), file);
  t.deepEqual(readdirSync(copy, { recursive: true }).sort(), readdirSync(example, { recursive: true }).sort());
  t.true(lstatSync(path.join(copy, 'README.md')).isFile());
});
