// The watched scope walk (issue 21 §9) finds exactly what a walk with no cache
// finds, after any change, while it skips the stat of every directory the kernel
// vouches for and returns an unchanged walk whole. Everything runs on real
// directories with the real inotify: the queue overflow is a real one (more
// events than the kernel queues), the watch limit is reached through a seam (the
// real one is the user's, shared with every other process).
import test, { type ExecutionContext } from 'ava';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, readlinkSync, realpathSync, renameSync, rmSync, writeFileSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { DirectoryWatch, type DirectoryWatchSeams } from '../../../../src/host/executors/confine/directory-watch.js';
import { isShapedLikeGitDirectory } from '../../../../src/host/executors/confine/git-inventory.js';
import { inheritableDescriptors } from '../../../../src/host/executors/confine/inherited-descriptors.js';
import { openInotify, IN_CREATE } from '../../../../src/host/executors/confine/inotify.js';
import { ScopeWalker, type ScopeWalk } from '../../../../src/host/executors/confine/scope-walk.js';
import { isGitDirectoryName } from '../../../../src/policy/git-control.js';
import { protectedToolName } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

type GitWalk = ScopeWalk<'git' | 'tool', 'shaped'>;

/** The predicates the git checks walk with (git-inventory.ts), with a watch. */
function watchedWalker(seams: DirectoryWatchSeams = {}): { walker: ScopeWalker<'git' | 'tool', 'shaped'>; watch: DirectoryWatch } {
  const watch = new DirectoryWatch(seams);
  const walker = new ScopeWalker(
    { entries: { git: (entry) => isGitDirectoryName(entry.name), tool: (entry) => protectedToolName(entry.name) !== undefined }, directories: { shaped: isShapedLikeGitDirectory } },
    {},
    watch,
  );
  return { walker, watch };
}

function found(walk: GitWalk) {
  return {
    git: walk.entries.git.map((e) => e.path).sort(),
    tool: walk.entries.tool.map((e) => e.path).sort(),
    shaped: [...walk.directories.shaped].sort(),
    unreadable: [...walk.unreadable].sort(),
  };
}

/** An independent oracle: a plain recursive readdir, no cache, no watch, the same rules (links not entered). */
function referenceWalk(root: string): ReturnType<typeof found> {
  const git: string[] = [];
  const tool: string[] = [];
  const shaped: string[] = [];
  const visit = (directory: string) => {
    const listing: Dirent[] = readdirSync(directory, { withFileTypes: true });
    if (isShapedLikeGitDirectory(listing)) shaped.push(directory);
    for (const entry of listing) {
      if (isGitDirectoryName(entry.name)) git.push(path.join(directory, entry.name));
      if (protectedToolName(entry.name) !== undefined) tool.push(path.join(directory, entry.name));
      if (entry.isDirectory()) visit(path.join(directory, entry.name));
    }
  };
  visit(root);
  return { git: git.sort(), tool: tool.sort(), shaped: shaped.sort(), unreadable: [] };
}

function workspace(t: ExecutionContext): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-watch-')), 'ws');
  mkdirSync(ws);
  return ws;
}

/** `count` directories, ten to a directory (breadth first). */
function makeTree(root: string, count: number): string[] {
  const all = [root];
  for (let head = 0, made = 0; made < count; head++) {
    for (let i = 0; i < 10 && made < count; i++, made++) {
      const directory = path.join(all[head]!, `d${i}`);
      mkdirSync(directory);
      all.push(directory);
    }
  }
  return all;
}

test('the native module is built and reports a real event', (t) => {
  const directory = realpathSync(tempDir(t, 'zb-inotify-'));
  const inotify = openInotify();
  if ('unavailable' in inotify) return t.fail(inotify.unavailable);
  try {
    const added = inotify.addWatch(directory, IN_CREATE);
    if (!('wd' in added)) return t.fail(added.code);
    mkdirSync(path.join(directory, 'made'));
    t.deepEqual(inotify.read(), [{ wd: added.wd, mask: IN_CREATE | 0x40000000, name: 'made' }]);
    t.deepEqual(inotify.read(), []);
    t.deepEqual(inotify.addWatch(path.join(directory, 'missing'), IN_CREATE), { code: 'ENOENT' });
  } finally {
    inotify.close();
  }
});

test('the watch descriptor is close-on-exec: no child inherits it, and the per-spawn descriptor check skips its costly fdinfo', (t) => {
  const ws = workspace(t);
  makeTree(ws, 20);
  const { walker } = watchedWalker();
  walker.walk({ roots: [ws] });
  const inotifyDescriptors = readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`) === 'anon_inode:inotify';
    } catch {
      return false; // the readdir's own descriptor, closed by now
    }
  });
  t.true(inotifyDescriptors.length > 0);
  for (const fd of inotifyDescriptors) {
    const flags = Number.parseInt(/^flags:\s*([0-7]+)$/mu.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8'))?.[1] ?? '0', 8);
    t.not(flags & 0o2000000, 0, `descriptor ${fd} is close-on-exec`);
    t.false(inheritableDescriptors().includes(Number(fd)));
  }
  const child = spawnSync('ls', ['-l', '/proc/self/fd'], { encoding: 'utf8' });
  t.is(child.status, 0);
  t.false(child.stdout.includes('inotify'));
});

test('an unchanged tree is walked again without a stat of any directory but the root, and a second time as a whole replay', (t) => {
  const ws = workspace(t);
  makeTree(ws, 300);
  const { walker, watch } = watchedWalker();
  const first = walker.walk({ roots: [ws] });
  t.is(watch.unavailable, undefined);
  t.is(first.listed, 301);
  const second = walker.walk({ roots: [ws] });
  t.like(second, { listed: 0, reused: 301, replayed: true });
  t.deepEqual(found(second), referenceWalk(ws));
});

test('a change deep in the tree is listed anew and nothing else is stat-ed but the changed directory and its subdirectories', (t) => {
  const ws = workspace(t);
  const all = makeTree(ws, 300);
  const { walker } = watchedWalker();
  walker.walk({ roots: [ws] });
  const deep = all[250]!;
  mkdirSync(path.join(deep, '.git'));
  writeFileSync(path.join(deep, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  const walk = walker.walk({ roots: [ws] });
  t.false(walk.replayed);
  // deep (an event on its watch) and deep/.git (new) are listed; the root is stat-ed; every other directory is vouched for.
  t.is(walk.listed, 2);
  t.is(walk.unstatted, 301 - 2);
  t.deepEqual(found(walk), referenceWalk(ws));
  t.deepEqual(found(walk).git, [path.join(deep, '.git')]);
});

test('a nested git init and a protected file made deep in the tree by a process that exited are found by the next walk', (t) => {
  const ws = workspace(t);
  const all = makeTree(ws, 200);
  const { walker } = watchedWalker();
  walker.walk({ roots: [ws] });
  t.true(walker.walk({ roots: [ws] }).replayed);
  const deep = all[180]!;
  const git = spawnSync('git', ['init', '-q', path.join(deep, 'nested')], { encoding: 'utf8' });
  t.is(git.status, 0, git.stderr);
  t.is(spawnSync('sh', ['-c', 'mkdir -p "$1/.vscode" && : > "$1/.envrc"', 'sh', all[120]!]).status, 0);
  const walk = walker.walk({ roots: [ws] });
  t.deepEqual(found(walk), referenceWalk(ws));
  t.deepEqual(found(walk).git, [path.join(deep, 'nested', '.git')]);
  t.deepEqual(found(walk).tool, [path.join(all[120]!, '.envrc'), path.join(all[120]!, '.vscode')]);
});

test('a directory renamed within the tree, and one renamed away and replaced, are found where they are now', (t) => {
  const ws = workspace(t);
  const all = makeTree(ws, 120);
  mkdirSync(path.join(all[50]!, '.git'));
  mkdirSync(path.join(all[60]!, '.git'));
  const { walker } = watchedWalker();
  walker.walk({ roots: [ws] });
  walker.walk({ roots: [ws] });
  renameSync(all[50]!, path.join(all[3]!, 'moved'));
  const outside = realpathSync(tempDir(t, 'zb-watch-outside-'));
  renameSync(all[60]!, path.join(outside, 'away'));
  mkdirSync(all[60]!);
  mkdirSync(path.join(all[60]!, 'HEAD'));
  const walk = walker.walk({ roots: [ws] });
  t.deepEqual(found(walk), referenceWalk(ws));
  t.deepEqual(found(walk).git, [path.join(all[3]!, 'moved', '.git')]);
  t.deepEqual(found(walk).shaped, [all[60]!]);
  // Changes in the directory moved out no longer count, and do not show up in the scope.
  mkdirSync(path.join(outside, 'away', 'd9'));
  t.deepEqual(found(walker.walk({ roots: [ws] })), referenceWalk(ws));
});

test('a change inside the sentinel directory, when a scope holds it, counts like any other', (t) => {
  const ws = workspace(t);
  const all = makeTree(ws, 30);
  // The temp directory can lie in a write scope: here the sentinel's directory is made inside the tree.
  const { walker } = watchedWalker({ sentinelParent: all[12]! });
  walker.walk({ roots: [ws] });
  walker.walk({ roots: [ws] });
  const sentinelDirectory = readdirSync(all[12]!).find((name) => name.startsWith('zotbox-watch-'));
  if (sentinelDirectory === undefined) return t.fail('no sentinel directory');
  mkdirSync(path.join(all[12]!, sentinelDirectory, '.git'));
  const walk = walker.walk({ roots: [ws] });
  t.deepEqual(found(walk).git, [path.join(all[12]!, sentinelDirectory, '.git')]);
  t.deepEqual(found(walker.walk({ roots: [ws] })).git, [path.join(all[12]!, sentinelDirectory, '.git')]);
});

test('an event queue that overflowed starts the watch over, and the walk falls back to checking every directory', (t) => {
  const ws = workspace(t);
  const all = makeTree(ws, 50);
  const { walker, watch } = watchedWalker();
  walker.walk({ roots: [ws] });
  t.true(walker.walk({ roots: [ws] }).replayed);
  // More events than the kernel queues for one descriptor: the rest are dropped and IN_Q_OVERFLOW is queued.
  const queued = Number(readFileSync('/proc/sys/fs/inotify/max_queued_events', 'utf8'));
  for (let i = 0; i <= queued; i++) writeFileSync(path.join(all[10]!, `f${i}`), '');
  // Made after the overflow: its event is lost, and only the fallback can find it.
  mkdirSync(path.join(all[40]!, '.git'));
  const epoch = watch.epoch;
  const walk = walker.walk({ roots: [ws] });
  t.is(watch.epoch, epoch + 1);
  t.false(walk.replayed);
  t.is(walk.unstatted, 0);
  t.deepEqual(found(walk), referenceWalk(ws));
  t.deepEqual(found(walk).git, [path.join(all[40]!, '.git')]);
  // Watched again from then on.
  t.true(walker.walk({ roots: [ws] }).replayed);
});

test('directories that cannot be watched (the watch limit) are checked by stat on every walk, and no walk is replayed', (t) => {
  const ws = workspace(t);
  const all = makeTree(ws, 100);
  const limited = new Set(all.slice(60));
  // The seam answers ENOSPC, as the kernel does at the user's watch limit, for the last 41 directories.
  const { walker } = watchedWalker({
    // The seam is handed /proc/self/fd/N: which directory that is, is what the link resolves to.
    addWatch: (target, add) => (limited.has(realpathSync(target)) ? { code: 'ENOSPC' } : add()),
  });
  walker.walk({ roots: [ws] });
  const again = walker.walk({ roots: [ws] });
  t.false(again.replayed);
  t.is(again.unstatted, 101 - 41 - 1); // neither the unwatched nor the root
  mkdirSync(path.join(all[90]!, '.git'));
  t.deepEqual(found(walker.walk({ roots: [ws] })), referenceWalk(ws));
});

test('a directory whose parent lost its search permission after a watched listing is reported as unreadable', (t) => {
  const root = realpathSync(tempDir(t, 'zb-watch-'));
  const ws = path.join(root, 'ws');
  const parent = path.join(ws, 'parent');
  const child = path.join(parent, 'child');
  mkdirSync(path.join(child, 'deeper'), { recursive: true });
  // Walked by an ordinary user (root reads every directory), who owns the workspace and chmods the directory.
  for (const directory of [root, ws, parent, child, path.join(child, 'deeper')]) chownSync(directory, 65534, 65534);
  chmodSync(root, 0o755);
  const module = (name: string) => JSON.stringify(new URL(`../../../../src/host/executors/confine/${name}`, import.meta.url).href);
  const script = [
    `import { chmodSync } from 'node:fs';`,
    `import { ScopeWalker } from ${module('scope-walk.js')};`,
    `import { DirectoryWatch } from ${module('directory-watch.js')};`,
    `const watch = new DirectoryWatch();`,
    `const walker = new ScopeWalker({ entries: {}, directories: {} }, {}, watch);`,
    `const fresh = () => new ScopeWalker({ entries: {}, directories: {} }).walk({ roots: [${JSON.stringify(ws)}] }).unreadable;`,
    `walker.walk({ roots: [${JSON.stringify(ws)}] });`,
    `const replayed = walker.walk({ roots: [${JSON.stringify(ws)}] }).replayed;`,
    // Readable but no longer searchable: its listing works, what lies in it cannot be stat-ed.
    `chmodSync(${JSON.stringify(parent)}, 0o600);`,
    `const second = walker.walk({ roots: [${JSON.stringify(ws)}] });`,
    `process.stdout.write(JSON.stringify({ unavailable: watch.unavailable ?? null, replayed, second: second.unreadable, fresh: fresh() }));`,
  ].join('\n');
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { uid: 65534, gid: 65534, encoding: 'utf8' });
  chmodSync(parent, 0o755); // so the fixture can be removed
  t.is(run.status, 0, run.stderr);
  t.deepEqual(JSON.parse(run.stdout), { unavailable: null, replayed: true, second: [child], fresh: [child] });
});

test('a mount made over a watched directory (no event) starts the watch over, and what the mount shows is found', (t) => {
  const ws = workspace(t);
  const sub = path.join(ws, 'sub');
  mkdirSync(sub);
  const module = (name: string) => JSON.stringify(new URL(`../../../../src/host/executors/confine/${name}`, import.meta.url).href);
  // In a private mount namespace of a child (the test's own stays untouched): a tmpfs over sub holding a .git.
  const script = [
    `import { execFileSync } from 'node:child_process';`,
    `import { mkdirSync } from 'node:fs';`,
    `import { ScopeWalker } from ${module('scope-walk.js')};`,
    `import { DirectoryWatch } from ${module('directory-watch.js')};`,
    `const watch = new DirectoryWatch();`,
    `const walker = new ScopeWalker({ entries: { git: (e) => e.name === '.git' }, directories: {} }, {}, watch);`,
    `walker.walk({ roots: [${JSON.stringify(ws)}] });`,
    `const replayed = walker.walk({ roots: [${JSON.stringify(ws)}] }).replayed;`,
    `execFileSync('mount', ['-t', 'tmpfs', 'none', ${JSON.stringify(sub)}]);`,
    `mkdirSync(${JSON.stringify(path.join(sub, '.git'))});`,
    `const after = walker.walk({ roots: [${JSON.stringify(ws)}] });`,
    `process.stdout.write(JSON.stringify({ replayed, git: after.entries.git.map((e) => e.path) }));`,
  ].join('\n');
  const run = spawnSync('unshare', ['--mount', '--propagation', 'private', process.execPath, '--input-type=module', '-e', script], { encoding: 'utf8' });
  t.is(run.status, 0, run.stderr);
  t.deepEqual(JSON.parse(run.stdout), { replayed: true, git: [path.join(sub, '.git')] });
});

type Operation = { kind: 'mkdir' | 'file' | 'remove' | 'replace' | 'rename' | 'renameFile'; at: number; name: string; to: number };

const NAMES = ['a', 'b', '.git', '.GIT', 'HEAD', 'head', '.envrc', '.vscode', 'x'];
const treeArbitrary = fc.array(fc.record({ path: fc.array(fc.constantFrom(...NAMES), { minLength: 1, maxLength: 4 }), directory: fc.boolean() }), { maxLength: 25 });
const operationsArbitrary = fc.array(fc.record({ kind: fc.constantFrom('mkdir', 'file', 'remove', 'replace', 'rename', 'renameFile'), at: fc.nat(), name: fc.constantFrom(...NAMES), to: fc.nat() }), {
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
    } else if (operation.kind === 'renameFile') {
      const files = readdirSync(at, { withFileTypes: true }).filter((entry) => entry.isFile());
      const file = files[operation.to % Math.max(1, files.length)];
      if (file !== undefined) renameSync(path.join(at, file.name), path.join(directories[operation.to % directories.length]!, operation.name));
    }
  } catch {
    // The generated operation does not apply to this tree (the name is taken): it is skipped.
  }
}

test('property: after any changes, the watched walk finds exactly what an uncached walk finds, and replays only an unchanged tree', (t) => {
  const scratch = realpathSync(tempDir(t, 'zb-watch-scratch-'));
  // One watch for every run, as in production (one per process), so stale watches of earlier trees are about.
  const { walker } = watchedWalker();
  let run = 0;
  fc.assert(
    fc.property(treeArbitrary, operationsArbitrary, (tree, operations) => {
      const root = path.join(scratch, `ws-${run++}`);
      mkdirSync(root);
      build(root, tree);
      walker.walk({ roots: [root] });
      const unchanged = walker.walk({ roots: [root] });
      if (!unchanged.replayed || JSON.stringify(found(unchanged)) !== JSON.stringify(referenceWalk(root))) return false;
      for (const operation of operations) {
        mutate(root, operation, scratch);
        if (JSON.stringify(found(walker.walk({ roots: [root] }))) !== JSON.stringify(referenceWalk(root))) return false;
        if (JSON.stringify(found(walker.walk({ roots: [root] }))) !== JSON.stringify(referenceWalk(root))) return false;
      }
      return true;
    }),
    { numRuns: 150 },
  );
  t.pass();
});
