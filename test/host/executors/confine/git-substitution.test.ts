// Every way git substitutes objects or history, on real repositories made by the
// real git: each case records the git directory, lets a command (as an agent
// would) change it, records it again and checks; then the user's own git reads the
// repository and must see the user's objects. The closed world of data refuses
// grafts and alternates through the whole aftercare, in the real sandbox.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { recordGitDirectory } from '../../../../src/host/executors/confine/git-directory-state.js';
import { runPlumbing } from '../../../../src/host/executors/confine/git-plumbing.js';
import { substitutionViolations } from '../../../../src/host/executors/confine/git-substitution.js';
import { sandboxWorld } from '../../../fixtures/sandbox-world.js';
import { tempDir } from '../../../fixtures/temp.js';

const USER_HOOK = '#!/bin/sh\necho lint\n';
const EVIL_HOOK = '#!/bin/sh\ntouch /tmp/pwned\n';

interface Repo {
  readonly workspace: string;
  readonly gitDir: string;
  git(...args: string[]): string;
  /** Writes `content` as a blob with the real git; returns its id. */
  blob(content: string): string;
}

function makeRepo(t: ExecutionContext): Repo {
  const workspace = tempDir(t, 'zb-subst-');
  const env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: workspace,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_AUTHOR_NAME: 'u',
    GIT_AUTHOR_EMAIL: 'u@x',
    GIT_COMMITTER_NAME: 'u',
    GIT_COMMITTER_EMAIL: 'u@x',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: workspace, encoding: 'utf8', env }).trim();
  const blob = (content: string) => execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: workspace, input: content, encoding: 'utf8', env }).trim();
  git('init', '-q', '-b', 'main', '.');
  mkdirSync(path.join(workspace, 'hooks'));
  writeFileSync(path.join(workspace, 'hooks', 'pre-commit'), USER_HOOK);
  chmodSync(path.join(workspace, 'hooks', 'pre-commit'), 0o755);
  writeFileSync(path.join(workspace, 'a.txt'), 'one\n');
  git('add', '.');
  git('commit', '-q', '-m', 'one');
  writeFileSync(path.join(workspace, 'a.txt'), 'two\n');
  git('commit', '-q', '-am', 'two');
  return { workspace, gitDir: path.join(workspace, '.git'), git, blob };
}

/** Records, lets `act` change the repository, records again and runs the check. */
function check(repo: Repo, act: () => void): ReturnType<typeof substitutionViolations> {
  const before = recordGitDirectory(repo.gitDir, false);
  act();
  return substitutionViolations(repo.gitDir, before, recordGitDirectory(repo.gitDir, false));
}

/** The user, later, discards a local edit of the hook; returns what their git wrote there. */
function userCheckoutOfHook(repo: Repo): string {
  writeFileSync(path.join(repo.workspace, 'hooks', 'pre-commit'), `${USER_HOOK}# trying something\n`);
  repo.git('checkout', '--', 'hooks/pre-commit');
  return readFileSync(path.join(repo.workspace, 'hooks', 'pre-commit'), 'utf8');
}

const named = (violations: readonly { path: string }[], where: string) => violations.some((v) => v.path === where);

test('a replace ref, loose, is refused and removed', (t) => {
  const repo = makeRepo(t);
  const hook = repo.git('rev-parse', 'HEAD:hooks/pre-commit');
  const violations = check(repo, () => repo.git('replace', hook, repo.blob(EVIL_HOOK)));
  t.true(named(violations, path.join(repo.gitDir, 'refs/replace', hook)), JSON.stringify(violations));
  t.false(existsSync(path.join(repo.gitDir, 'refs/replace', hook)));
  t.is(userCheckoutOfHook(repo), USER_HOOK);
});

test('a replace ref as a line of packed-refs is refused, and packed-refs is put back as it was', (t) => {
  const repo = makeRepo(t);
  repo.git('pack-refs', '--all');
  const packed = path.join(repo.gitDir, 'packed-refs');
  const earlier = readFileSync(packed, 'utf8');
  const hook = repo.git('rev-parse', 'HEAD:hooks/pre-commit');
  const violations = check(repo, () => writeFileSync(packed, `${earlier}${repo.blob(EVIL_HOOK)} refs/replace/${hook}\n`));
  t.true(named(violations, packed), JSON.stringify(violations));
  t.is(readFileSync(packed, 'utf8'), earlier);
  t.is(userCheckoutOfHook(repo), USER_HOOK);
});

test('a replacement tree for a subtree, in packed-refs, is refused', (t) => {
  const repo = makeRepo(t);
  const tree = execFileSync('git', ['mktree'], { cwd: repo.workspace, input: `100755 blob ${repo.blob(EVIL_HOOK)}\tpre-commit\n`, encoding: 'utf8' }).trim();
  const hooks = repo.git('rev-parse', 'HEAD:hooks');
  const violations = check(repo, () => writeFileSync(path.join(repo.gitDir, 'packed-refs'), `${tree} refs/replace/${hooks}\n`));
  t.true(named(violations, path.join(repo.gitDir, 'packed-refs')), JSON.stringify(violations));
  t.false(existsSync(path.join(repo.gitDir, 'packed-refs')), 'the packed-refs the command made is gone');
  repo.git('read-tree', '-m', '-u', 'HEAD');
  t.is(readFileSync(path.join(repo.workspace, 'hooks', 'pre-commit'), 'utf8'), USER_HOOK);
});

test("a replace ref the user had stays, loose or packed by the command's git pack-refs", (t) => {
  const repo = makeRepo(t);
  repo.git('replace', repo.git('rev-parse', 'HEAD:a.txt'), repo.blob('the user replaced it\n'));
  t.deepEqual(
    check(repo, () => repo.git('pack-refs', '--all')),
    [],
  );
  t.true(readFileSync(path.join(repo.gitDir, 'packed-refs'), 'utf8').includes('refs/replace/'));
});

test('a ref, HEAD or todo list that names a replace ref is refused: the user would write it', (t) => {
  const repo = makeRepo(t);
  const hook = repo.git('rev-parse', 'HEAD:hooks/pre-commit');
  const head = check(repo, () => writeFileSync(path.join(repo.gitDir, 'HEAD'), `ref: refs/replace/${hook}\n`));
  t.true(named(head, path.join(repo.gitDir, 'HEAD')), JSON.stringify(head));
  t.is(readFileSync(path.join(repo.gitDir, 'HEAD'), 'utf8'), 'ref: refs/heads/main\n');
  const todo = check(repo, () => {
    mkdirSync(path.join(repo.gitDir, 'rebase-merge'));
    writeFileSync(path.join(repo.gitDir, 'rebase-merge', 'git-rebase-todo'), `update-ref refs/replace/${hook}\n`);
    writeFileSync(path.join(repo.gitDir, 'rebase-merge', 'head-name'), 'refs/heads/main\n');
  });
  t.true(named(todo, path.join(repo.gitDir, 'rebase-merge/git-rebase-todo')), JSON.stringify(todo));
  t.false(existsSync(path.join(repo.gitDir, 'rebase-merge')), 'the rebase the command started is gone');
});

test('a new shallow line is refused and the shallow file put back', (t) => {
  const repo = makeRepo(t);
  const parent = repo.git('rev-parse', 'HEAD~1');
  t.is(repo.git('rev-list', '--count', 'HEAD'), '2');
  const violations = check(repo, () => writeFileSync(path.join(repo.gitDir, 'shallow'), `${repo.git('rev-parse', 'HEAD')}\n`));
  t.true(named(violations, path.join(repo.gitDir, 'shallow')), JSON.stringify(violations));
  t.false(existsSync(path.join(repo.gitDir, 'shallow')));
  t.is(repo.git('rev-list', 'HEAD~1'), parent, "the user's history goes on past HEAD");
});

test('a new loose object whose content is not its id is refused and removed; a real one passes', (t) => {
  const repo = makeRepo(t);
  const raw = Buffer.from(`blob ${Buffer.byteLength(EVIL_HOOK)}\0${EVIL_HOOK}`);
  const claimed = '0123456789abcdef0123456789abcdef01234567';
  const file = path.join(repo.gitDir, 'objects', claimed.slice(0, 2), claimed.slice(2));
  const violations = check(repo, () => {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, deflateSync(raw));
  });
  t.true(named(violations, file), JSON.stringify(violations));
  t.false(existsSync(file));
  t.deepEqual(
    check(repo, () => repo.blob('an honest new object\n')),
    [],
  );
});

/** A pack holding `content` whose index claims it is the object `claimed` (what git would then read for that id). */
function forgedPack(t: ExecutionContext, repo: Repo, content: string, claimed: string): string {
  const other = tempDir(t, 'zb-subst-pack-');
  execFileSync('git', ['init', '-q', other]);
  const real = execFileSync('git', ['hash-object', '-w', '--stdin'], { cwd: other, input: content, encoding: 'utf8' }).trim();
  execFileSync('git', ['pack-objects', '-q', path.join(other, 'out')], { cwd: other, input: `${real}\n` });
  const base = readdirSync(other)
    .find((name) => name.endsWith('.idx'))!
    .slice(0, -'.idx'.length);
  const index = readFileSync(path.join(other, `${base}.idx`));
  // Version 2 index, one object: the fan-out counts it from its first byte on, then its id.
  const first = Number.parseInt(claimed.slice(0, 2), 16);
  for (let byte = 0; byte < 256; byte++) index.writeUInt32BE(byte < first ? 0 : 1, 8 + 4 * byte);
  Buffer.from(claimed, 'hex').copy(index, 8 + 1024);
  const name = `pack-${'ab'.repeat(20)}`;
  writeFileSync(path.join(repo.gitDir, 'objects', 'pack', `${name}.idx`), index);
  writeFileSync(path.join(repo.gitDir, 'objects', 'pack', `${name}.pack`), readFileSync(path.join(other, `${base}.pack`)));
  return name;
}

test("a new pack whose index claims another object's id is refused and removed; the user's checkout reads their own hook", (t) => {
  const repo = makeRepo(t);
  repo.git('gc', '-q');
  // git reads the newest pack first (by whole seconds): the user's is an hour old.
  const hourAgo = new Date(Date.now() - 3_600_000);
  for (const file of readdirSync(path.join(repo.gitDir, 'objects', 'pack'))) utimesSync(path.join(repo.gitDir, 'objects', 'pack', file), hourAgo, hourAgo);
  const hook = repo.git('rev-parse', 'HEAD:hooks/pre-commit');
  let name = '';
  const violations = check(repo, () => {
    name = forgedPack(t, repo, EVIL_HOOK, hook);
    t.is(repo.git('cat-file', '-p', hook), EVIL_HOOK.trim(), 'precondition: git reads the forged pack for the id');
  });
  t.true(named(violations, path.join(repo.gitDir, 'objects', 'pack', `${name}.idx`)), JSON.stringify(violations));
  t.false(existsSync(path.join(repo.gitDir, 'objects', 'pack', `${name}.pack`)));
  t.is(userCheckoutOfHook(repo), USER_HOOK);
});

test('ordinary packing (gc, repack) passes the pack check', (t) => {
  const repo = makeRepo(t);
  t.deepEqual(
    check(repo, () => repo.git('gc', '-q')),
    [],
  );
  t.deepEqual(
    check(repo, () => repo.git('repack', '-a', '-d', '-q')),
    [],
  );
});

/** Writes a commit-graph, then makes its entry for HEAD name HEAD~1's tree (git reads the graph for a commit's tree). */
function forgeCommitGraph(repo: Repo): void {
  repo.git('commit-graph', 'write', '--reachable');
  const file = path.join(repo.gitDir, 'objects', 'info', 'commit-graph');
  const graph = readFileSync(file);
  const head = Buffer.from(repo.git('rev-parse', 'HEAD^{tree}'), 'hex');
  Buffer.from(repo.git('rev-parse', 'HEAD~1^{tree}'), 'hex').copy(graph, graph.indexOf(head, 8));
  chmodSync(file, 0o644);
  writeFileSync(file, graph);
}

test("zotbox's plumbing never reads the commit-graph, and one a command wrote is removed", (t) => {
  const repo = makeRepo(t);
  const tree = repo.git('rev-parse', 'HEAD^{tree}');
  const violations = check(repo, () => {
    forgeCommitGraph(repo);
    t.is(repo.git('log', '-1', '--format=%T', 'HEAD'), repo.git('rev-parse', 'HEAD~1^{tree}'), "precondition: the forged graph fools git's log");
    const read = runPlumbing(repo.gitDir, ['log', '-1', '--format=%T', 'HEAD']);
    t.is(read.ok ? read.output.toString('utf8').trim() : read.reason, tree, 'the plumbing reads the commit itself');
  });
  t.deepEqual(violations, [], 'a cache git rebuilds is removed without stopping the run');
  t.false(existsSync(path.join(repo.gitDir, 'objects', 'info', 'commit-graph')));
  t.is(repo.git('log', '-1', '--format=%T', 'HEAD'), tree);
});

test("a commit-graph the command left alone is the user's and stays", (t) => {
  const repo = makeRepo(t);
  repo.git('commit-graph', 'write', '--reachable');
  t.deepEqual(
    check(repo, () => repo.git('tag', 'v1')),
    [],
  );
  t.true(existsSync(path.join(repo.gitDir, 'objects', 'info', 'commit-graph')));
});

for (const confined of [true, false]) {
  test(`${confined ? 'confined' : 'unconfined'}: grafts and alternates (objects and history from elsewhere) are refused and removed`, async (t) => {
    const world = sandboxWorld(t);
    const git = (...args: string[]) => execFileSync('git', args, { cwd: world.ws, env: { PATH: '/usr/bin:/bin', HOME: world.root, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    git('-c', 'user.name=u', '-c', 'user.email=u@x', 'commit', '-q', '--allow-empty', '-m', 'one');
    for (const [command, left] of [
      [`echo ${'0'.repeat(40)} > .git/info/grafts`, 'info/grafts'],
      ['mkdir -p /tmp/elsewhere && echo /tmp/elsewhere > .git/objects/info/alternates', 'objects/info/alternates'],
      ['echo http://example.invalid/objects > .git/objects/info/http-alternates', 'objects/info/http-alternates'],
    ] as const) {
      // Confined, info/ is not even writable; elsewhere the aftercare removes what was written.
      const outcome = await world.run(command, { confined }).then(
        (result) => (confined && result.exitCode !== 0 ? 'not written' : 'ran'),
        (error: unknown) => (error as { code?: string }).code,
      );
      t.true(outcome === 'ZB_CONFINEMENT_GIT_PROGRAM' || (confined && outcome === 'not written'), `${command}: ${String(outcome)}`);
      t.false(existsSync(path.join(world.ws, '.git', left)), `${left} was removed`);
    }
  });
}

test("a shared index the user had (core.splitIndex), rewritten in place, is refused and put back; the user's git stages their own hook", (t) => {
  const repo = makeRepo(t);
  repo.git('update-index', '--split-index');
  const shared = readdirSync(repo.gitDir).find((name) => name.startsWith('sharedindex.'));
  t.truthy(shared, 'git wrote a shared index');
  const file = path.join(repo.gitDir, shared!);
  const original = readFileSync(file);
  // What an agent's shared index stages instead: the same entries, the hook's pointing at its own blob (made in a copy).
  const evil = repo.blob(EVIL_HOOK);
  const copy = tempDir(t, 'zb-subst-copy-');
  execFileSync('cp', ['-a', `${repo.workspace}/.`, copy]);
  const env = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: copy, GIT_CONFIG_NOSYSTEM: '1' };
  execFileSync('git', ['update-index', '--no-split-index'], { cwd: copy, env });
  execFileSync('git', ['update-index', '--cacheinfo', `100755,${evil},hooks/pre-commit`], { cwd: copy, env });
  execFileSync('git', ['update-index', '--split-index'], { cwd: copy, env });
  const forged = readdirSync(path.join(copy, '.git'))
    .filter((name) => name.startsWith('sharedindex.') && name !== shared)
    .map((name) => readFileSync(path.join(copy, '.git', name)))[0];
  t.truthy(forged, 'the copy wrote another shared index');
  const violations = check(repo, () => writeFileSync(file, forged!));
  t.true(named(violations, file), JSON.stringify(violations));
  t.deepEqual(readFileSync(file), original);
  t.is(repo.git('ls-files', '-s', 'hooks/pre-commit').split(/\s+/u)[1], repo.git('rev-parse', 'HEAD:hooks/pre-commit'));
});
