// Every command example in docs/*.md (and the README) runs, as written, against the
// built CLI (issue 13): in a temporary directory holding a copy of examples/, a home
// with ~/proj, and the archives the examples name; with no model key and no network.
// Examples that cannot run so are marked in the page with their reason, and the
// skipped ones are listed here by hand, so none hides.
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findDocExamples, type DocExample } from '../fixtures/doc-examples.js';
import { BIN, EXAMPLES_DIR, REPO_ROOT } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

const PAGES = ['README.md', ...readdirSync(path.join(REPO_ROOT, 'docs')).map((name) => `docs/${name}`)].filter((file) => file.endsWith('.md')).sort();
const EXAMPLES = PAGES.flatMap((file) => findDocExamples(file, readFileSync(path.join(REPO_ROOT, file), 'utf8')));

/** The examples that do not run, each with the reason its page gives: written out by hand, so a new skip is a decision. */
const SKIPPED = [
  ['docs/agents.md', 'zotbox run my-agent "What does this project do?" --cwd ~/proj', 'needs ANTHROPIC_API_KEY or OPENAI_API_KEY'],
  ['docs/agents.md', 'zotbox run my-agent --cwd ~/proj     # no prompt, on a terminal: a chat, opened by the greeting', 'needs ANTHROPIC_API_KEY or OPENAI_API_KEY'],
  ['docs/cli.md', 'zotbox <command> [arguments] [options]', 'a synopsis, not a command'],
  ['docs/cli.md', 'zotbox --help | -h        zotbox --version | -V        zotbox <command> --help', 'a synopsis, not a command'],
  ['docs/cli.md', 'zotbox completion bash > ~/.local/share/bash-completion/completions/zotbox', "writes into your shell's configuration"],
  ['docs/cli.md', 'zotbox completion zsh > "${fpath[1]}/_zotbox"', "writes into your shell's configuration"],
  ['docs/cli.md', 'zotbox completion fish > ~/.config/fish/completions/zotbox.fish', "writes into your shell's configuration"],
];

/**
 * The world the examples assume: the examples/ agents, ~/proj (a copy of the sample
 * workspace), reviewer.zot and vendor/reviewer.zot (code-reviewer packed), and
 * `zotbox` on PATH running this build. Returns the directory and the environment.
 */
function exampleWorld(t: ExecutionContext): { cwd: string; env: Record<string, string> } {
  const root = tempDir(t, 'zb-doc-examples-');
  const cwd = path.join(root, 'work');
  const home = path.join(root, 'home');
  const bin = path.join(root, 'bin');
  cpSync(EXAMPLES_DIR, path.join(cwd, 'examples'), { recursive: true });
  cpSync(path.join(EXAMPLES_DIR, 'workspaces', 'sample-project'), path.join(home, 'proj'), { recursive: true });
  mkdirSync(bin);
  writeFileSync(path.join(bin, 'zotbox'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`);
  chmodSync(path.join(bin, 'zotbox'), 0o755);
  // Nothing from the test process's environment: no model key, no ZOTBOX_ settings.
  const env = { PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, HOME: home, ZOTBOX_HOME: path.join(root, 'state'), LANG: 'C.UTF-8' };
  mkdirSync(path.join(cwd, 'vendor'));
  const pack = spawnSync(path.join(bin, 'zotbox'), ['pack', path.join(cwd, 'examples', 'code-reviewer'), 'vendor/reviewer.zot'], { cwd, env, encoding: 'utf8' });
  if (pack.status !== 0) throw new Error(`could not pack the example archive: ${pack.stderr}`);
  cpSync(path.join(cwd, 'vendor', 'reviewer.zot'), path.join(cwd, 'reviewer.zot'));
  return { cwd, env };
}

/** Runs one example line with bash, as a reader pasting it would; undefined when it behaved as its page says. */
function failureOf(example: DocExample, world: { cwd: string; env: Record<string, string> }): string | undefined {
  // The time limit is a guard against a hung example, never a wait: every example ends on its own.
  const result = spawnSync('bash', ['--norc', '--noprofile', '-c', example.command], { cwd: world.cwd, env: world.env, encoding: 'utf8', timeout: 60_000 });
  const where = `${example.file}:${example.line}: ${example.command}`;
  const output = `stdout:\n${result.stdout}\nstderr:\n${result.stderr}`;
  if (result.status !== example.expectedStatus) return `${where}\nexited ${String(result.status)}, the page says ${example.expectedStatus}\n${output}`;
  const codes = [...result.stderr.matchAll(/error\[(ZB_[A-Z_]+)\]/g)].map((m) => m[1]);
  if (codes.some((code) => code !== example.expectedCode)) return `${where}\nprinted error ${codes.join(', ')}, the page expects ${example.expectedCode ?? 'none'}\n${output}`;
  if (example.expectedCode !== undefined && !`${result.stdout}${result.stderr}`.includes(example.expectedCode)) return `${where}\ndid not show ${example.expectedCode}\n${output}`;
  return undefined;
}

test('the pages hold command examples, and each runnable one is found', (t) => {
  const runnable = EXAMPLES.filter((e) => e.skip === undefined);
  t.true(runnable.length >= 8, `found ${runnable.length}`);
  t.true(runnable.some((e) => e.file === 'docs/permissions.md' && e.command.startsWith('zotbox check examples/code-reviewer read ../secret.txt')));
});

test('the skipped examples are exactly these, each with the reason its page gives', (t) => {
  const skipped = EXAMPLES.filter((e) => e.skip !== undefined);
  for (const e of skipped) t.log(`skipped: ${e.file}:${e.line}: ${e.command} (${e.skip ?? ''})`);
  t.deepEqual(
    skipped.map((e) => [e.file, e.command, e.skip]),
    SKIPPED,
  );
});

for (const page of PAGES) {
  const examples = EXAMPLES.filter((e) => e.file === page && e.skip === undefined);
  if (examples.length === 0) continue;
  test(`every command example in ${page} runs as the page says`, (t) => {
    // One world per page: its examples run in order, so one may use what an earlier one made.
    const world = exampleWorld(t);
    const failures = examples.map((example) => failureOf(example, world)).filter((f) => f !== undefined);
    t.deepEqual(failures, []);
    t.log(`${examples.length} examples ran`);
  });
}

test('examples are found in fenced blocks only, with "$ " removed and the outcome read from "# exit N[: ZB_CODE]"', (t) => {
  const page = [
    'zotbox outside a block',
    '```sh',
    '$ zotbox inspect a',
    'zotbox check a read x   # exit 1: ZB_POLICY_NO_PERMISSION',
    'npx zotbox --help',
    '```',
    '<!-- example: skip (needs a key) -->',
    '',
    '```',
    'zotbox run a',
    '```',
    '```',
    'zotbox verify b # exit 1: denied',
    '```',
  ].join('\n');
  t.deepEqual(findDocExamples('p.md', page), [
    { file: 'p.md', line: 3, command: 'zotbox inspect a', expectedStatus: 0 },
    { file: 'p.md', line: 4, command: 'zotbox check a read x   # exit 1: ZB_POLICY_NO_PERMISSION', expectedStatus: 1, expectedCode: 'ZB_POLICY_NO_PERMISSION' },
    { file: 'p.md', line: 10, command: 'zotbox run a', skip: 'needs a key', expectedStatus: 0 },
    { file: 'p.md', line: 13, command: 'zotbox verify b # exit 1: denied', expectedStatus: 1 },
  ]);
});

test('a misspelt example marker is an error, not a silent run or skip', (t) => {
  t.throws(() => findDocExamples('p.md', '<!-- example: skipp (x) -->\n```\nzotbox run a\n```\n'), { message: /unknown example marker/ });
});
