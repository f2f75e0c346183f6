// A relative entry of the user's own PATH (user-path-programs.ts): the files a hook's bare names run as there, read
// through the shell reader; then end to end through toolFileReferences on a real binstub project. Expected files
// written out by hand.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scriptWords } from '../../../../src/host/executors/confine/shell-command-words.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { programRunsOnUserPath, relativeEntries } from '../../../../src/host/executors/confine/user-path-programs.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const context = (PATH: string) => ({ scriptFile: '/ws/.git/hooks/pre-commit', scriptDirectory: '/ws/.git/hooks', workingDirectory: '/ws', environment: { PATH, HOME: '/home/u' } });

/** The words of the script that are run, as written, with the user's PATH `PATH` (sorted: the order is no rule). */
const runWords = (text: string, PATH: string) =>
  scriptWords(text, context(PATH))
    .flatMap((word) => (word.kind === 'path' && word.runs === true ? [word.text] : []))
    .sort();

const entries = test.macro((t, PATH: string | undefined, expected: readonly string[]) => {
  t.deepEqual(relativeEntries(PATH), [...expected]);
});
test('the relative entries of a PATH: ./bin', entries, './bin:/usr/bin:/bin', ['./bin']);
test('absolute entries only: none', entries, '/usr/local/bin:/usr/bin:/bin', []);
test('an empty entry (leading, trailing, doubled) is the working directory', entries, ':/usr/bin::/bin:', ['.']);
test('every relative entry, in order, each once', entries, 'bin:/usr/bin:node_modules/.bin:.:bin', ['bin', 'node_modules/.bin', '.']);
test('an unexpanded ~ entry: the home (bash) and the directory named ~ (dash)', entries, '~/bin:/usr/bin', ['~/bin', './~/bin']);
test('no PATH: none', entries, undefined, []);

const runs = test.macro((t, text: string, PATH: string, expected: readonly string[]) => {
  t.deepEqual(runWords(text, PATH), [...expected].sort());
});
const HOOK = '#!/bin/sh\nfiles=$(git diff --cached --name-only)\nacme-lint $files\n';
test('with ./bin on the user PATH, every bare name the hook runs is also its file in bin/', runs, HOOK, './bin:/usr/bin:/bin', ['git', 'bin/git', 'acme-lint', 'bin/acme-lint']);
test('with the user PATH absolute only, the names are left as written', runs, HOOK, '/usr/bin:/bin', ['git', 'acme-lint']);
test('an empty entry: the name at the working directory, which is the word itself', runs, HOOK, '/usr/bin:', ['git', 'acme-lint']);
test('each relative entry counts, wherever it stands', runs, '#!/bin/sh\nlint\n', '/usr/bin:bin:/bin:tools/bin', ['lint', 'bin/lint', 'tools/bin/lint']);
test('a PATH the script sets without $PATH no longer reaches the user PATH', runs, '#!/bin/sh\nPATH=/usr/bin:/bin\nlint\n', './bin:/usr/bin', [
  // (The script's own entries and names there are script-path-programs.ts' reading.)
  '/usr/bin',
  '/bin',
  'lint',
  '/usr/bin/lint',
  '/bin/lint',
]);
test('a PATH set for one command with $PATH still reaches it', runs, '#!/bin/sh\nPATH=/opt/x:$PATH lint\n', './bin:/usr/bin', ['/opt/x', 'lint', '/opt/x/lint', 'bin/lint']);
test('builtins, keywords, paths and sourcing are never looked up on PATH', runs, '#!/bin/sh\nif test -n "$X"; then echo hi; fi\n./tools/x.sh\n. ./env.sh\n', './bin:/usr/bin', [
  './tools/x.sh',
  '.',
  './env.sh',
]);
test('after a cd, from the directory it moves to too', runs, '#!/bin/sh\ncd web\nlint\n', './bin:/usr/bin', ['lint', 'bin/lint', 'web/lint', 'web/bin/lint']);
test('behind a wrapper the program is looked up', runs, '#!/bin/sh\nexec env A=1 lint\n', './bin:/usr/bin', ['lint', 'bin/lint']);
test('behind timeout: the name it runs is looked up too (timeout itself as well)', runs, '#!/bin/sh\ntimeout 60 acme-lint\n', './bin:/usr/bin', ['timeout', 'bin/timeout', 'bin/acme-lint']);
test('a chain of wrappers, valued options skipped: each wrapper the one before runs, and the name', runs, '#!/bin/sh\ntimeout -s KILL 60 nice -n 5 acme-lint --fix\n', './bin:/usr/bin', [
  'timeout',
  'bin/timeout',
  'bin/nice',
  'bin/acme-lint',
]);
test('flock FILE NAME: the lock file is no name, the command is', runs, '#!/bin/sh\nflock -w 5 .git/lint.lock acme-lint\n', './bin:/usr/bin', ['flock', 'bin/flock', 'bin/acme-lint']);
test("find's -exec and -ok commands (and a wrapper there) are looked up", runs, '#!/bin/sh\nfind src -exec timeout 5 acme-lint {} + -ok rm {} \\;\n', './bin:/usr/bin', [
  'find',
  'bin/find',
  'bin/timeout',
  'bin/acme-lint',
  'bin/rm',
]);
test('a builtin behind a wrapper is a program found on PATH', runs, '#!/bin/sh\ntimeout 5 echo hi\n', './bin:/usr/bin', ['timeout', 'bin/timeout', 'bin/echo']);
test('behind a wrapper with the user PATH absolute only: nothing more is named', runs, '#!/bin/sh\ntimeout 60 acme-lint\n', '/usr/bin:/bin', ['timeout']);
test("a program's process call behind a wrapper: each name it runs in the user's relative entries", (t) => {
  t.deepEqual(programRunsOnUserPath('timeout 60 acme-lint --fix', { PATH: './bin:/usr/bin' }), ['bin/timeout', 'bin/acme-lint']);
});
test('inside sh -c text too', runs, "#!/bin/sh\nsh -c 'lint --fix'\n", './bin:/usr/bin', ['sh', 'bin/sh', 'lint --fix', 'lint', 'bin/lint']);

/** A binstub project (bin/acme-lint runs tools/real-lint.sh), its hook running `acme-lint`, read with the user PATH `PATH`. */
function binstubProject(t: Parameters<typeof tempDir>[0], PATH: string): { protects(relative: string): boolean; unresolved: readonly string[] } {
  const ws = realpathSync(tempDir(t, 'zb-userpath-'));
  for (const directory of ['.git/hooks', 'bin', 'tools', 'lib']) mkdirSync(path.join(ws, directory), { recursive: true });
  writeFileSync(path.join(ws, '.git/hooks/pre-commit'), '#!/bin/sh\nfiles=$(git diff --cached --name-only)\nacme-lint $files\n', { mode: 0o755 });
  writeFileSync(path.join(ws, 'bin/acme-lint'), '#!/bin/sh\nexec sh tools/real-lint.sh "$@"\n', { mode: 0o755 });
  writeFileSync(path.join(ws, 'tools/real-lint.sh'), 'echo ok\n');
  writeFileSync(path.join(ws, 'lib/app.rb'), 'puts 1\n');
  const found = toolFileReferences([], [ws], { environment: { PATH, HOME: '/nonexistent-home' }, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { protects: (relative) => findControlLocation(path.join(ws, relative), found.locations) !== undefined, unresolved: found.unresolved };
}

test('./bin on the user PATH: the binstub and what it runs are protected, so is a bin/git that is not there; nothing unresolved', (t) => {
  const found = binstubProject(t, './bin:/usr/bin:/bin');
  t.true(found.protects('bin/acme-lint'));
  t.true(found.protects('tools/real-lint.sh'));
  t.true(found.protects('bin/git'));
  t.false(found.protects('lib/app.rb'));
  t.false(found.protects('bin/other'));
  t.deepEqual(found.unresolved, []);
});

test('the user PATH absolute only: bin/ is not named (no over-denial), nothing unresolved', (t) => {
  const found = binstubProject(t, '/usr/bin:/bin');
  t.false(found.protects('bin/acme-lint'));
  t.false(found.protects('bin/git'));
  t.false(found.protects('tools/real-lint.sh'));
  t.deepEqual(found.unresolved, []);
});

/** A node hook running `acme-lint` by name through a process call, read with the user PATH `PATH`. */
function nodeHookProject(t: Parameters<typeof tempDir>[0], PATH: string): (relative: string) => boolean {
  const ws = realpathSync(tempDir(t, 'zb-userpath-node-'));
  for (const directory of ['.git/hooks', 'bin']) mkdirSync(path.join(ws, directory), { recursive: true });
  writeFileSync(path.join(ws, '.git/hooks/pre-commit'), '#!/usr/bin/env node\nconst { execFileSync } = require("node:child_process");\nexecFileSync("acme-lint", ["--fix"]);\n', { mode: 0o755 });
  const found = toolFileReferences([], [ws], { environment: { PATH, HOME: '/nonexistent-home' }, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  t.deepEqual(found.unresolved, []);
  return (relative) => findControlLocation(path.join(ws, relative), found.locations) !== undefined;
}

test("a program's process call by name: its file in ./bin of the user PATH is protected, there or not", (t) => {
  t.true(nodeHookProject(t, './bin:/usr/bin:/bin')('bin/acme-lint'));
});

test("a program's process call by name with the user PATH absolute only: bin/ is not named", (t) => {
  t.false(nodeHookProject(t, '/usr/bin:/bin')('bin/acme-lint'));
});
