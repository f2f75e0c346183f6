// What a pending operation of the user's runs when they continue (the exec lines of a stopped rebase's todo, and the
// shell scripts those run), and the program names git derives from config (git-<alias>, git-remote-<scheme>...),
// found in PATH directories in the scopes. Real git makes the state; each expected outcome is stated by hand.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { appendFileSync, chmodSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { collectControlLocations, type UserGitEnvironment } from '../../../../src/host/executors/confine/control-locations.js';
import { derivedPrograms } from '../../../../src/host/executors/confine/git-config-lines.js';
import { readConfigEntries } from '../../../../src/host/executors/confine/git-config-text.js';
import { scanGitMetadata } from '../../../../src/host/executors/confine/git-inventory.js';
import { todoExecCommands } from '../../../../src/host/executors/confine/git-sequencer-state.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const GIT_ENV = {
  PATH: '/usr/bin:/bin',
  HOME: '/nonexistent',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_AUTHOR_NAME: 'u',
  GIT_AUTHOR_EMAIL: 'u@example.invalid',
  GIT_COMMITTER_NAME: 'u',
  GIT_COMMITTER_EMAIL: 'u@example.invalid',
};

function git(cwd: string, args: readonly string[], env: Record<string, string> = {}): void {
  execFileSync('git', args, { cwd, env: { ...GIT_ENV, ...env }, stdio: 'ignore' });
}

/** A repository with three commits, and the user's scripts (excluded locally, as a user's own tools often are). */
function repository(t: Parameters<typeof tempDir>[0]): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-pending-')), 'ws');
  mkdirSync(ws);
  git(ws, ['init', '-q', '-b', 'main']);
  for (const name of ['a', 'b', 'c']) {
    writeFileSync(path.join(ws, name), `${name}\n`);
    git(ws, ['add', name]);
    git(ws, ['commit', '-qm', name]);
  }
  mkdirSync(path.join(ws, 'scripts'));
  appendFileSync(path.join(ws, '.git', 'info', 'exclude'), 'scripts/\n');
  return ws;
}

function script(file: string, body: string): void {
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

const scan = (ws: string, user: UserGitEnvironment = { home: '/nonexistent', noSystem: true }) => collectControlLocations(scanGitMetadata([ws]), [ws], user);

test('the exec and x lines of a todo list are the commands git runs; nothing else is', (t) => {
  const todo = 'pick 1234567 a\n  exec ./scripts/check.sh --fast\nx make test\n# exec commented out\nexecute-not a command\nexec\nbreak\n';
  t.deepEqual(todoExecCommands(todo), [
    { command: './scripts/check.sh --fast', line: 2 },
    { command: 'make test', line: 3 },
  ]);
});

test('the program names git derives from config entries', (t) => {
  const entries = readConfigEntries(
    '[alias]\n\tst = status\n[remote "o"]\n\turl = evil://h/r\n\tpushurl = hg::https://h/r\n\tvcs = svn\n[url "fancy://h/"]\n\tinsteadOf = gh:\n[credential]\n\thelper = vault --x\n\thelper = !./c.sh\n[pull]\n\ttwohead = mine\n[branch "main"]\n\tmergeOptions = -s theirs2 --strategy=x3\n[user]\n\tname = n\n',
  ).entries;
  t.deepEqual(
    entries.map((entry) => derivedPrograms(entry)),
    [['git-st'], ['git-remote-evil'], ['git-remote-hg'], ['git-remote-svn'], ['git-remote-fancy'], ['git-credential-vault'], [], ['git-merge-mine'], ['git-merge-theirs2', 'git-merge-x3'], []],
  );
});

test("what the exec lines of the user's stopped rebase run is protected, and the shell scripts those run in turn", (t) => {
  const ws = repository(t);
  script(path.join(ws, 'scripts', 'check.sh'), './scripts/lib.sh');
  script(path.join(ws, 'scripts', 'lib.sh'), 'exit 0');
  writeFileSync(path.join(ws, 'scripts', 'other.sh'), 'exit 0\n');
  t.is(findControlLocation(path.join(ws, 'scripts', 'check.sh'), scan(ws).locations), undefined, 'no pending operation: the script is an ordinary file');
  git(ws, ['rebase', '-q', '-i', '--exec', './scripts/check.sh && sh scripts/more.sh', 'HEAD~2'], { GIT_SEQUENCE_EDITOR: 'sed -i 1ibreak' });
  const todo = path.join(ws, '.git', 'rebase-merge', 'git-rebase-todo');
  const { locations, unresolved } = scan(ws);
  t.deepEqual(unresolved, []);
  const line = `the exec line 2 of ${todo} ("./scripts/check.sh && sh scripts/more.sh")`;
  t.is(findControlLocation(path.join(ws, 'scripts', 'check.sh'), locations)?.reason, `run by ${line}; the user's git runs it when they continue the pending operation`);
  t.is(findControlLocation(path.join(ws, 'scripts', 'more.sh'), locations)?.reason, `run by ${line}; the user's git runs it when they continue the pending operation`);
  t.is(
    findControlLocation(path.join(ws, 'scripts', 'lib.sh'), locations)?.reason,
    `run by ${path.join(ws, 'scripts', 'check.sh')}, which ${line} runs; the user's git runs it when they continue the pending operation`,
  );
  t.is(findControlLocation(path.join(ws, 'scripts', 'other.sh'), locations), undefined);
});

test('an exec line whose program the shell grammar cannot spell out is unresolved, naming the line', (t) => {
  const ws = repository(t);
  git(ws, ['rebase', '-q', '-i', '--exec', 'sh "$(cat scripts/which)"', 'HEAD~1'], { GIT_SEQUENCE_EDITOR: 'sed -i 1ibreak' });
  const { unresolved } = scan(ws);
  t.is(unresolved.length, 1);
  t.true(unresolved[0]!.startsWith(`the exec line 2 of ${path.join(ws, '.git', 'rebase-merge', 'git-rebase-todo')} ("sh \\"$(cat scripts/which)\\"") names`), unresolved[0]);
});

test('a derived program name is protected in a relative PATH entry, and not without one', (t) => {
  const ws = repository(t);
  git(ws, ['config', 'alias.st', 'status']);
  git(ws, ['rebase', '-q', '-i', '-s', 'mystrategy', 'HEAD~1'], { GIT_SEQUENCE_EDITOR: 'sed -i 1ibreak' });
  const config = path.join(ws, '.git', 'config');
  const relative = scan(ws, { home: '/nonexistent', noSystem: true, searchPath: '/usr/bin:.' }).locations;
  t.is(findControlLocation(path.join(ws, 'git-st'), relative)?.reason, `the program git-st in a PATH directory; the user's git runs it for alias.st (set in ${config} line 7)`);
  t.is(
    findControlLocation(path.join(ws, 'git-merge-mystrategy'), relative)?.reason,
    `the program git-merge-mystrategy in a PATH directory; the user's git runs it for the strategy of the pending rebase in ${path.join(ws, '.git')}`,
  );
  const absolute = scan(ws, { home: '/nonexistent', noSystem: true, searchPath: '/usr/bin' }).locations;
  t.is(findControlLocation(path.join(ws, 'git-st'), absolute), undefined);
});

test('an exec line that preloads a node package by name is unresolved, naming the line and the package', (t) => {
  const ws = repository(t);
  git(ws, ['rebase', '-q', '-i', '--exec', 'node -r @acme/setup scripts/check.js', 'HEAD~1'], { GIT_SEQUENCE_EDITOR: 'sed -i 1ibreak' });
  const { unresolved, locations } = scan(ws);
  t.deepEqual(unresolved, [
    `the exec line 2 of ${path.join(ws, '.git', 'rebase-merge', 'git-rebase-todo')} ("node -r @acme/setup scripts/check.js"): node preloads the package "@acme/setup" by name, which zotbox does not look up here`,
  ]);
  t.truthy(findControlLocation(path.join(ws, 'scripts', 'check.js'), locations));
});

test("a file an exec line sources keeps the line's $0, which git sets to the line's text: a spelling of it is unresolved", (t) => {
  const ws = repository(t);
  // Real git runs `sh -c '. scripts/lib.sh' '. scripts/lib.sh'`: in lib.sh, `dirname "$0"` is ". scripts", not "scripts".
  script(path.join(ws, 'scripts', 'lib.sh'), 'sh "$(dirname "$0")/lint.sh"');
  script(path.join(ws, 'scripts', 'lint.sh'), 'exit 0');
  git(ws, ['rebase', '-q', '-i', '--exec', '. scripts/lib.sh', 'HEAD~1'], { GIT_SEQUENCE_EDITOR: 'sed -i 1ibreak' });
  const { unresolved, locations } = scan(ws);
  const lib = path.join(ws, 'scripts', 'lib.sh');
  t.is(unresolved.length, 1, unresolved.join('\n'));
  t.true(unresolved[0]!.startsWith(`${lib}, which the exec line 2 of ${path.join(ws, '.git', 'rebase-merge', 'git-rebase-todo')} (". scripts/lib.sh") runs names`), unresolved[0]);
  t.truthy(findControlLocation(lib, locations));
});
