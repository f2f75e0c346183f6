// The bubblewrap argument builder, without running bubblewrap: what is mounted,
// how, and in which order.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { prepareSandbox } from '../../../../src/host/executors/confine/sandbox-plan.js';
import { tempDir } from '../../../fixtures/temp.js';

function world(t: Parameters<typeof tempDir>[0]) {
  const root = realpathSync(tempDir(t, 'zb-plan-'));
  const ws = path.join(root, 'ws');
  const state = path.join(root, 'state');
  const data = path.join(state, 'agents', 'a', 'data');
  mkdirSync(ws);
  mkdirSync(data, { recursive: true });
  return { root, ws, state, data };
}

/** The option and operands of each mount, e.g. ['--bind-fd', '4', '/ws']. */
function mounts(args: readonly string[]): string[][] {
  const result: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (['--bind-fd', '--ro-bind-fd', '--ro-bind', '--symlink', '--file'].includes(arg)) result.push(args.slice(i, i + 3));
    if (['--tmpfs', '--dir', '--proc', '--dev', '--remount-ro'].includes(arg)) result.push(args.slice(i, i + 2));
  }
  return result;
}

test('every sandbox drops every privilege and shares nothing', (t) => {
  const { ws } = world(t);
  const plan = prepareSandbox({ readRoots: [ws], writeRoots: [ws] });
  t.teardown(() => plan.close());
  const args = plan.args.join(' ');
  for (const flag of [
    '--unshare-user --uid 65534 --gid 65534',
    '--cap-drop ALL',
    '--disable-userns',
    '--unshare-pid',
    '--unshare-net',
    '--unshare-ipc',
    '--die-with-parent',
    '--proc /proc --remount-ro /proc',
    '--tmpfs /tmp --dir /tmp/home',
  ]) {
    t.true(args.includes(flag), flag);
  }
  t.false(args.includes('--share-net'));
});

test('scopes are bound by descriptor, write scopes read-write, read scopes read-only, parents before children', (t) => {
  const { ws, root } = world(t);
  const docs = path.join(root, 'docs');
  const nested = path.join(ws, 'vendor');
  mkdirSync(docs);
  mkdirSync(nested);
  const plan = prepareSandbox({ readRoots: [docs, nested], writeRoots: [ws] });
  t.teardown(() => plan.close());
  const binds = mounts(plan.args).filter((m) => m[0]!.endsWith('-fd'));
  // vendor is inside the write scope: already writable, not bound again read-only. fd 3 is the start channel.
  t.deepEqual(binds, [
    ['--ro-bind-fd', '4', docs],
    ['--bind-fd', '5', ws],
  ]);
  // Then one descriptor for each file copied into /etc.
  t.is(plan.fds.length, 2 + mounts(plan.args).filter((m) => m[0] === '--file').length);
  t.false(plan.args.includes(ws) && plan.args.some((a, i) => a === '--bind' && plan.args[i + 1] === ws), 'never bound by path');
});

test('a scope that does not exist is not mounted (bubblewrap would create it as a directory)', (t) => {
  const { ws } = world(t);
  const missing = path.join(ws, 'CHANGELOG.md');
  const plan = prepareSandbox({ readRoots: [], writeRoots: [missing] });
  t.teardown(() => plan.close());
  t.false(plan.args.includes(missing));
});

test('a scope reached through a symlink is refused, not followed', (t) => {
  const { ws, root } = world(t);
  const link = path.join(root, 'link');
  symlinkSync(ws, link);
  const error = t.throws(() => prepareSandbox({ readRoots: [link], writeRoots: [] }));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_BIND_UNSAFE');
});

test('the state directory is masked in a scope that contains it, and the agent data scope is bound again inside it', (t) => {
  const { root, state, data } = world(t);
  const plan = prepareSandbox({ readRoots: [root], writeRoots: [data], stateDirectory: state, agentData: data });
  t.teardown(() => plan.close());
  const list = mounts(plan.args).filter((m) => m[0] !== '--ro-bind' && m[0] !== '--symlink');
  const rootAt = list.findIndex((m) => m[2] === root);
  const maskAt = list.findIndex((m) => m[0] === '--tmpfs' && m[1] === state);
  const dataAt = list.findIndex((m) => m[2] === data);
  t.true(rootAt !== -1 && rootAt < maskAt && maskAt < dataAt, JSON.stringify(list));
  t.is(list[dataAt]![0], '--bind-fd');
});

test("a scope inside the state directory other than the agent's own data is never mounted", (t) => {
  const { state, data } = world(t);
  const consents = path.join(state, 'agents', 'a', 'consents');
  mkdirSync(consents);
  const plan = prepareSandbox({ readRoots: [consents], writeRoots: [path.join(state, 'agents')], stateDirectory: state, agentData: data });
  t.teardown(() => plan.close());
  t.false(plan.args.includes(consents));
  t.false(plan.args.includes(path.join(state, 'agents')));
});

test('git control entries at any depth of a write scope are bound read-only over themselves, in any case', (t) => {
  const { ws } = world(t);
  const deep = path.join(ws, 'a', 'b', '.GIT');
  mkdirSync(path.join(deep, 'hooks'), { recursive: true });
  writeFileSync(path.join(deep, 'config'), '[core]\n');
  writeFileSync(path.join(deep, 'HEAD'), 'ref: refs/heads/main\n');
  mkdirSync(path.join(ws, 'sub'));
  writeFileSync(path.join(ws, 'sub', '.git'), 'gitdir: ../a/b/.GIT\n');
  const plan = prepareSandbox({ readRoots: [], writeRoots: [ws] });
  t.teardown(() => plan.close());
  const readOnly = mounts(plan.args)
    .filter((m) => m[0] === '--ro-bind-fd')
    .map((m) => m[2]);
  t.deepEqual(readOnly.sort(), [path.join(deep, 'config'), path.join(deep, 'hooks'), path.join(ws, 'sub', '.git')].sort());
  t.false(readOnly.includes(path.join(deep, 'HEAD')), 'refs and HEAD stay writable: commits work');
});

test('the system part is read-only and /etc holds only what programs need: never shadow, private keys or tokens', (t) => {
  const { ws } = world(t);
  const plan = prepareSandbox({ readRoots: [ws], writeRoots: [] });
  t.teardown(() => plan.close());
  const system = mounts(plan.args)
    .filter((m) => m[0] === '--ro-bind' || m[0] === '--symlink' || m[0] === '--file')
    .map((m) => m[2]!);
  t.true(system.includes('/usr'));
  t.true(system.includes('/etc/passwd'));
  // /etc is a tmpfs of the sandbox's own with copies of its files, remounted read-only after every other mount, and verified so.
  t.true(mounts(plan.args).some((m) => m[0] === '--file' && m[2] === '/etc/passwd'));
  t.deepEqual(plan.args.slice(plan.args.indexOf('--tmpfs'), plan.args.indexOf('--tmpfs') + 2), ['--tmpfs', '/etc']);
  t.deepEqual(plan.args.slice(-6), ['--remount-ro', '/etc', '--remount-ro', '/dev', '--remount-ro', '/']);
  t.deepEqual(plan.expectations.slice(0, 2), [
    { kind: 'fresh', target: '/', fsType: 'tmpfs', readOnly: true },
    { kind: 'fresh', target: '/etc', fsType: 'tmpfs', readOnly: true },
  ]);
  for (const secret of ['/etc/shadow', '/etc/gshadow', '/etc/ssl/private', '/etc/sudoers', '/etc/ssh', '/etc/npmrc', '/etc/pip.conf', '/etc', '/root', '/home', '/var', '/run']) {
    t.false(system.includes(secret), secret);
  }
  t.false(plan.args.some((a, i) => a === '--bind' || (a === '--ro-bind' && plan.args[i + 1] === '/')));
});

test('with a scope that holds /etc, its entries are bound one by one as before (the scope brings its own mount points there)', (t) => {
  const plan = prepareSandbox({ readRoots: ['/'], writeRoots: [] });
  t.teardown(() => plan.close());
  t.true(mounts(plan.args).some((m) => m[0] === '--ro-bind' && m[1] === '/etc/passwd' && m[2] === '/etc/passwd'));
  t.false(plan.args.includes('--file'));
  t.false(mounts(plan.args).some((m) => m[1] === '/etc' && (m[0] === '--tmpfs' || m[0] === '--remount-ro')));
  t.false(plan.expectations.some((e) => e.target === '/etc'));
});

test("bubblewrap's root and /dev are remounted read-only after every other mount; /dev/shm is a writable tmpfs of its own", (t) => {
  const { ws } = world(t);
  const inside = path.join(ws, 'inside');
  mkdirSync(inside);
  const plan = prepareSandbox({ readRoots: [inside], writeRoots: [ws] });
  t.teardown(() => plan.close());
  const list = mounts(plan.args);
  const at = (option: string, target: string) => list.findIndex((m) => m[0] === option && m[1] === target);
  // The last mounts are the remounts: every mount point in / and /dev is made before they turn read-only.
  t.deepEqual(list.slice(-2), [
    ['--remount-ro', '/dev'],
    ['--remount-ro', '/'],
  ]);
  t.true(at('--dev', '/dev') < at('--tmpfs', '/dev/shm'));
  t.true(at('--tmpfs', '/dev/shm') < at('--remount-ro', '/dev'));
  const fresh = plan.expectations.filter((e) => e.kind === 'fresh').map((e) => [e.target, e.readOnly]);
  t.deepEqual(fresh, [
    ['/', true],
    ['/etc', true],
    ['/proc', true],
    ['/dev', true],
    ['/tmp', false],
    ['/dev/shm', false],
  ]);
});

test('with a scope of / bound over the root, the root is not remounted (the scope says whether it is writable)', (t) => {
  const plan = prepareSandbox({ readRoots: ['/'], writeRoots: [] });
  t.teardown(() => plan.close());
  t.deepEqual(plan.args.slice(-2), ['--remount-ro', '/dev']);
  t.false(plan.expectations.some((e) => e.kind === 'fresh' && e.target === '/'));
  t.true(plan.expectations.some((e) => e.kind === 'fresh' && e.target === '/dev' && e.readOnly));
});
