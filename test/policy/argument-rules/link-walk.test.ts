// The walk behind "follows links inside trees" (link-walk.ts, issue 10 item 4):
// every link in a tree is decided after resolution, the directories links lead
// to are walked too, loops end, a directory that cannot be listed and a tree
// too large to check are denied. Trees are built here; expectations by hand.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkLinksInTree, MAX_WALKED_ENTRIES } from '../../../src/policy/argument-rules/link-walk.js';
import { compileScopes, type CompiledScopes } from '../../../src/policy/scopes.js';
import { tempDir } from '../../fixtures/temp.js';

interface LinkWorld {
  readonly root: string;
  /** Read and write scope. */
  readonly W: string;
  /** Read scope only. */
  readonly R: string;
  /** Outside every scope. */
  readonly S: string;
  readonly scopes: CompiledScopes;
}

function file(at: string, content = 'x\n'): void {
  mkdirSync(path.dirname(at), { recursive: true });
  writeFileSync(at, content);
}

function link(target: string, at: string): void {
  mkdirSync(path.dirname(at), { recursive: true });
  symlinkSync(target, at);
}

function linkWorld(t: Parameters<typeof tempDir>[0]): LinkWorld {
  const root = realpathSync(tempDir(t, 'zb-link-walk-'));
  const [W, R, S] = ['W', 'R', 'S'].map((name) => path.join(root, name)) as [string, string, string];
  file(path.join(W, 'plain', 'a.txt'));
  file(path.join(R, 'r.txt'));
  file(path.join(S, 'secret.txt'), 'SECRET-MARKER\n');
  const scopes = compileScopes({ read: [W, R], write: [W] }, { workspace: W, agentData: path.join(root, 'data') });
  return { root, W, R, S, scopes };
}

function outcome(check: ReturnType<typeof checkLinksInTree>): string {
  return check.ok ? 'allow' : check.code;
}

test('a tree without links is allowed, and so is a root that does not exist yet', (t) => {
  const { W, scopes } = linkWorld(t);
  t.is(outcome(checkLinksInTree(path.join(W, 'plain'), 'read', scopes)), 'allow');
  t.is(outcome(checkLinksInTree(path.join(W, 'copy-to-be-made'), 'write', scopes)), 'allow');
});

test('a link to the secret deep in a tree is denied, naming the link', (t) => {
  const { W, S, scopes } = linkWorld(t);
  const leak = path.join(W, 'tree', 'a', 'b', 'c', 'leak');
  link(path.join(S, 'secret.txt'), leak);
  const check = checkLinksInTree(path.join(W, 'tree'), 'read', scopes);
  t.is(outcome(check), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
  t.true(!check.ok && check.reason.includes(leak));
});

test('links that stay inside the read scopes are allowed for reading and, into read-only places, denied for writing', (t) => {
  const { W, R, scopes } = linkWorld(t);
  link(path.join(R, 'r.txt'), path.join(W, 'tree', 'to-r'));
  link('../plain/a.txt', path.join(W, 'tree', 'to-a'));
  t.is(outcome(checkLinksInTree(path.join(W, 'tree'), 'read', scopes)), 'allow');
  t.is(outcome(checkLinksInTree(path.join(W, 'tree'), 'write', scopes)), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
});

test('a link to a directory is walked where it leads: a link to the secret in there is denied', (t) => {
  const { W, R, S, scopes } = linkWorld(t);
  // W/tree/to-rdir -> R/rdir, allowed itself; R/rdir/inner -> S/secret.txt, found only by walking R/rdir.
  link(path.join(S, 'secret.txt'), path.join(R, 'rdir', 'inner'));
  link(path.join(R, 'rdir'), path.join(W, 'tree', 'to-rdir'));
  t.is(outcome(checkLinksInTree(path.join(W, 'tree'), 'read', scopes)), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
});

test('a link to a directory that holds a link to a directory holding the secret link is denied', (t) => {
  const { W, S, scopes } = linkWorld(t);
  link(path.join(S, 'secret.txt'), path.join(W, 'third', 'leak'));
  link(path.join(W, 'third'), path.join(W, 'second', 'to-third'));
  link(path.join(W, 'second'), path.join(W, 'tree', 'to-second'));
  t.is(outcome(checkLinksInTree(path.join(W, 'tree'), 'read', scopes)), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
});

test('a link to a directory outside the scopes is denied before anything in it is read', (t) => {
  const { W, S, scopes } = linkWorld(t);
  link(S, path.join(W, 'tree', 'to-s-dir'));
  t.is(outcome(checkLinksInTree(path.join(W, 'tree'), 'read', scopes)), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
});

test('a link into /proc is forbidden', (t) => {
  const { W, scopes } = linkWorld(t);
  link('/proc/self', path.join(W, 'tree', 'me'));
  t.is(outcome(checkLinksInTree(path.join(W, 'tree'), 'read', scopes)), 'ZB_POLICY_PATH_FORBIDDEN');
});

test('a loop of directory links ends, and a clean loop is allowed', (t) => {
  const { W, scopes } = linkWorld(t);
  link('..', path.join(W, 'tree', 'sub', 'up'));
  link(path.join(W, 'tree'), path.join(W, 'tree', 'sub', 'deeper', 'root'));
  t.is(outcome(checkLinksInTree(path.join(W, 'tree'), 'read', scopes)), 'allow');
});

test('a loop of directory links still finds the secret link in it', (t) => {
  const { W, S, scopes } = linkWorld(t);
  link('..', path.join(W, 'tree', 'sub', 'up'));
  link(path.join(S, 'secret.txt'), path.join(W, 'tree', 'zz-leak'));
  t.is(outcome(checkLinksInTree(path.join(W, 'tree', 'sub'), 'read', scopes)), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
});

test('links that point at each other cannot be resolved and are denied', (t) => {
  const { W, scopes } = linkWorld(t);
  link('b', path.join(W, 'tree', 'a'));
  link('a', path.join(W, 'tree', 'b'));
  t.is(outcome(checkLinksInTree(path.join(W, 'tree'), 'read', scopes)), 'ZB_POLICY_PATH_UNRESOLVABLE');
});

test('a dangling link is decided by where it would lead', (t) => {
  const { W, S, scopes } = linkWorld(t);
  link(path.join(W, 'plain', 'not-yet'), path.join(W, 'inside', 'dangling'));
  link(path.join(S, 'not-yet'), path.join(W, 'outside', 'dangling'));
  t.is(outcome(checkLinksInTree(path.join(W, 'inside'), 'read', scopes)), 'allow');
  t.is(outcome(checkLinksInTree(path.join(W, 'outside'), 'read', scopes)), 'ZB_POLICY_PATH_OUTSIDE_SCOPE');
});

test('the entry limit: a tree of exactly the limit is walked, one entry more is denied', (t) => {
  const { W, scopes } = linkWorld(t);
  // Four entries: two files, a directory, and a file inside it.
  file(path.join(W, 'four', 'a'));
  file(path.join(W, 'four', 'b'));
  file(path.join(W, 'four', 'd', 'c'));
  t.is(outcome(checkLinksInTree(path.join(W, 'four'), 'read', scopes, 4)), 'allow');
  t.is(outcome(checkLinksInTree(path.join(W, 'four'), 'read', scopes, 3)), 'ZB_POLICY_SHELL_ARGUMENT');
});

test('the default entry limit denies a tree of 20,001 entries', (t) => {
  const { W, scopes } = linkWorld(t);
  const big = path.join(W, 'big');
  mkdirSync(big);
  for (let index = 0; index <= 20_000; index += 1) writeFileSync(path.join(big, `f${index}`), '');
  t.is(MAX_WALKED_ENTRIES, 20_000);
  t.is(outcome(checkLinksInTree(big, 'read', scopes)), 'ZB_POLICY_SHELL_ARGUMENT');
});

// Run as an ordinary user in a child: root lists every directory whatever its mode.
const walkModule = new URL('../../../src/policy/argument-rules/link-walk.js', import.meta.url).href;
const scopesModule = new URL('../../../src/policy/scopes.js', import.meta.url).href;

test('a directory in the tree that cannot be listed is denied, not passed over', (t) => {
  const { root, W } = linkWorld(t);
  const hidden = path.join(W, 'tree', 'hidden');
  file(path.join(hidden, 'maybe-a-link'));
  for (const directory of [root, W, path.join(W, 'tree'), hidden, path.join(W, 'plain')]) chownSync(directory, 65534, 65534);
  chmodSync(root, 0o755);
  chmodSync(hidden, 0o000);
  const script = [
    `import { checkLinksInTree } from ${JSON.stringify(walkModule)};`,
    `import { compileScopes } from ${JSON.stringify(scopesModule)};`,
    `const scopes = compileScopes({ read: [${JSON.stringify(W)}], write: [${JSON.stringify(W)}] }, { workspace: ${JSON.stringify(W)}, agentData: ${JSON.stringify(path.join(root, 'data'))} });`,
    `const tree = checkLinksInTree(${JSON.stringify(path.join(W, 'tree'))}, 'read', scopes);`,
    `const plain = checkLinksInTree(${JSON.stringify(path.join(W, 'plain'))}, 'read', scopes);`,
    'process.stdout.write(JSON.stringify([tree.ok ? "allow" : tree.code, plain.ok ? "allow" : plain.code]));',
  ].join('\n');
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { uid: 65534, gid: 65534, encoding: 'utf8' });
  chmodSync(hidden, 0o755); // so the fixture can be removed
  t.is(child.status, 0, child.stderr);
  t.deepEqual(JSON.parse(child.stdout), ['ZB_POLICY_PATH_UNRESOLVABLE', 'allow']);
});
