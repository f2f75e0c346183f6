// Every mount of a sandbox is verified inside its namespace before the command
// starts (issue 21 §1). The race of the issue (a concurrent run swaps a
// directory while bubblewrap mounts by path) is made deterministic with the
// isolation's SandboxProbe: a swap between zotbox's open and the spawn (the
// mount lands on a decoy), after bubblewrap mounted and before the release (the
// names swapped back), or between the host's two looks. Each swap must refuse
// the call with ZB_CONFINEMENT_MOUNT_MOVED before anything of the command ran.
import test, { type ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, realpathSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { executeBash, type BashResult } from '../../../../src/host/executors/bash.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../../../src/host/executors/command-environment.js';
import { createCommandIsolation, type SandboxProbe } from '../../../../src/host/executors/confine/command-isolation.js';
import { verifySandboxMounts, type MountExpectation } from '../../../../src/host/executors/confine/mount-verification.js';
import type { SandboxLayout } from '../../../../src/host/executors/confine/sandbox-plan.js';
import { compileScopes } from '../../../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../../../src/policy/shell-decision.js';
import { bubblewrapPath } from '../../../fixtures/isolation.js';
import { tempDir } from '../../../fixtures/temp.js';

const STATE_SECRET = 'receipt key: do not read';

interface World {
  readonly root: string;
  readonly ws: string;
  readonly state: string;
  readonly data: string;
  readonly layout: SandboxLayout;
}

/** A workspace (write scope) inside a read scope that also holds the state directory, with the agent's data inside that. */
function world(t: ExecutionContext): World {
  const root = realpathSync(tempDir(t, 'zb-mounts-'));
  const ws = path.join(root, 'ws');
  const state = path.join(root, 'state');
  const data = path.join(state, 'agents', 'tester', 'data');
  mkdirSync(ws);
  mkdirSync(data, { recursive: true });
  writeFileSync(path.join(state, 'receipt.key'), STATE_SECRET);
  return { root, ws, state, data, layout: { readRoots: [root], writeRoots: [ws, data], stateDirectory: state, agentData: data } };
}

function gitInit(directory: string): void {
  mkdirSync(directory, { recursive: true });
  execFileSync('git', ['init', '-q', directory]);
}

/** Runs `command` with bash -c (ask mode: the sandbox, not the gate, is under test), confined, with the probe. */
function run(w: World, command: string, probe?: SandboxProbe, layout: SandboxLayout = w.layout): Promise<BashResult> {
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: w.ws, agentData: w.data });
  const shell: ShellContext = { mode: 'ask', allow: [], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
  const decision = decideShellCommand(command, shell);
  if (!decision.allow) throw new Error(decision.reason);
  const isolation = createCommandIsolation({ kind: 'bubblewrap', bwrap: bubblewrapPath() }, layout, probe);
  return executeBash(decision, { workspace: w.ws, timeoutMs: 60_000, outputCapBytes: 65536, isolation, shell });
}

/** Swaps two directory entries' names (two renames: the test is the only one acting, so no third party sees the gap). */
function swap(a: string, b: string): void {
  const aside = `${a}.swap`;
  renameSync(a, aside);
  renameSync(b, a);
  renameSync(aside, b);
}

/** A same-shaped decoy repository the sandbox's scan never saw: an empty .git with hooks/. */
function makeDecoy(directory: string): void {
  mkdirSync(path.join(directory, '.git', 'hooks'), { recursive: true });
}

test('an ordinary command runs, and every mount verifies: scopes, a write scope inside a read scope, git protections, the state mask, /proc, /dev, /tmp', async (t) => {
  const w = world(t);
  const repo = path.join(w.ws, 'repo');
  gitInit(repo);
  let verified: readonly MountExpectation[] = [];
  const result = await run(w, 'echo ok', { beforeVerify: (_pid, expectations) => (verified = expectations) });
  t.is(result.exitCode, 0, result.stderr);
  t.is(result.stdout, 'ok\n');
  const targets = verified.map((e) => `${e.kind === 'bind' ? (e.readOnly ? 'ro' : 'rw') : e.fsType} ${e.target}`);
  for (const expected of [
    'proc /proc',
    'tmpfs /dev',
    'tmpfs /tmp',
    `ro ${w.root}`,
    `rw ${w.ws}`,
    `tmpfs ${w.state}`,
    `rw ${w.data}`,
    `rw ${path.join(repo, '.git')}`,
    `ro ${path.join(repo, '.git', 'hooks')}`,
    `ro ${path.join(repo, '.git', 'config')}`,
  ]) {
    t.true(targets.includes(expected), `${expected} is verified (verified: ${targets.join(', ')})`);
  }
});

for (const [how, mode] of [
  ["the run's sandbox", {}],
  ['a sandbox of its own (the start script)', { cold: true }],
] as const) {
  test(`${how}: a repository swapped for a decoy before bubblewrap mounts: the call is refused, nothing ran, the real hooks stay unwritten`, async (t) => {
    const w = world(t);
    const repo = path.join(w.ws, 'repo');
    const decoy = path.join(w.ws, 'decoy');
    gitInit(repo);
    const marker = path.join(w.ws, 'ran');
    // After the swap the real repository is named "decoy": a command that got this far would plant its hook there.
    const plant = `echo ran > ${marker}; echo 'touch /tmp/pwned' > ${decoy}/.git/hooks/pre-commit; echo 'touch /tmp/pwned' > ${repo}/.git/hooks/pre-commit`;
    const error = await t.throwsAsync(
      run(w, plant, {
        ...mode,
        beforeSpawn: () => {
          makeDecoy(decoy);
          swap(repo, decoy);
        },
      }),
    );
    t.is((error as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
    swap(repo, decoy); // the real repository back at its name, as the attacker would leave it
    t.false(existsSync(marker), 'the command never started');
    t.false(existsSync(path.join(repo, '.git', 'hooks', 'pre-commit')), 'no hook in the real repository');
    t.true(existsSync(path.join(repo, '.git', 'HEAD')), 'the real repository is the one at its name again');
  });
}

test('a repository swapped for a decoy between the git scan and zotbox opening it: refused before bubblewrap starts, the real hooks unwritten', async (t) => {
  const w = world(t);
  const repo = path.join(w.ws, 'repo');
  const decoy = path.join(w.ws, 'decoy');
  gitInit(repo);
  const marker = path.join(w.ws, 'ran');
  let spawned = false;
  const error = await t.throwsAsync(
    run(w, `echo ran > ${marker}; echo evil > ${decoy}/.git/hooks/pre-commit`, {
      afterScan: () => {
        gitInit(decoy); // every control entry the scan listed exists in the decoy too: only identity tells them apart
        swap(repo, decoy); // zotbox would otherwise open, protect and verify the decoy's .git, and leave the real one bare
      },
      beforeSpawn: () => (spawned = true),
    }),
  );
  t.is((error as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
  t.false(spawned, 'bubblewrap never started');
  swap(repo, decoy);
  t.false(existsSync(marker), 'the command never started');
  t.false(existsSync(path.join(repo, '.git', 'hooks', 'pre-commit')), 'no hook in the real repository');
});

test('mounts moved after bubblewrap made them, names then swapped back: the object at the path is right but unmounted there, and the call is refused', async (t) => {
  const w = world(t);
  const repo = path.join(w.ws, 'repo');
  const decoy = path.join(w.ws, 'decoy');
  gitInit(repo);
  const marker = path.join(w.ws, 'ran');
  const error = await t.throwsAsync(
    run(w, `echo ran > ${marker}; echo evil > ${repo}/.git/hooks/pre-commit`, {
      beforeSpawn: () => {
        makeDecoy(decoy);
        swap(repo, decoy); // the .git bind lands on the decoy's .git
      },
      beforeVerify: () => swap(repo, decoy), // and back: at repo/.git sits the real .git, uncovered
    }),
  );
  t.is((error as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
  t.false(existsSync(marker), 'the command never started');
  t.false(existsSync(path.join(repo, '.git', 'hooks', 'pre-commit')), 'no hook in the real repository');
});

test('a hooks link target swapped for a decoy before bubblewrap mounts: refused, the real hooks unwritten', async (t) => {
  const w = world(t);
  const repo = path.join(w.ws, 'repo');
  gitInit(repo);
  const githooks = path.join(repo, 'githooks');
  const decoy = path.join(repo, 'decoyhooks');
  mkdirSync(githooks);
  rmSync(path.join(repo, '.git', 'hooks'), { recursive: true });
  symlinkSync('../githooks', path.join(repo, '.git', 'hooks'));
  const marker = path.join(w.ws, 'ran');
  const error = await t.throwsAsync(
    run(w, `echo ran > ${marker}; echo evil > ${decoy}/pre-commit; echo evil > ${githooks}/pre-commit`, {
      beforeSpawn: () => {
        mkdirSync(decoy);
        swap(githooks, decoy);
      },
    }),
  );
  t.is((error as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
  swap(githooks, decoy);
  t.false(existsSync(marker), 'the command never started');
  t.deepEqual(readdirSync(githooks), [], 'the real hooks directory is unchanged');
});

test('a write scope nested in a read scope, swapped for a decoy before bubblewrap mounts: refused', async (t) => {
  const w = world(t);
  const sub = path.join(w.ws, 'sub');
  const decoy = path.join(w.ws, 'decoy');
  mkdirSync(sub);
  const layout: SandboxLayout = { ...w.layout, readRoots: [w.root], writeRoots: [sub, w.data] };
  const marker = path.join(w.ws, 'ran');
  const error = await t.throwsAsync(
    run(
      w,
      `echo ran > ${sub}/ran; echo ran > ${marker}`,
      {
        beforeSpawn: () => {
          mkdirSync(decoy);
          swap(sub, decoy);
        },
      },
      layout,
    ),
  );
  t.is((error as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
  swap(sub, decoy);
  t.deepEqual(readdirSync(sub), [], 'the command never wrote into the scope');
});

test('the state-directory mask moved onto a decoy before bubblewrap mounts: refused, the state secret not read', async (t) => {
  const w = world(t);
  const decoy = path.join(w.root, 'decoy-state');
  const leak = path.join(w.ws, 'leak');
  // No agent data inside the state directory: the mask is all that keeps it out (nothing else is mounted there).
  const layout: SandboxLayout = { readRoots: [w.root], writeRoots: [w.ws], stateDirectory: w.state };
  const error = await t.throwsAsync(
    run(
      w,
      `cat ${decoy}/receipt.key ${w.state}/receipt.key > ${leak}; cat ${decoy}/receipt.key`,
      {
        beforeSpawn: () => {
          mkdirSync(decoy);
          swap(w.state, decoy);
        },
      },
      layout,
    ),
  );
  t.is((error as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
  swap(w.state, decoy);
  t.false(existsSync(leak), 'the command never started: nothing read the state directory');
});

test('the state-directory mask moved, names then swapped back: the real state directory at its path is no tmpfs, and the call is refused', async (t) => {
  const w = world(t);
  const decoy = path.join(w.root, 'decoy-state');
  const leak = path.join(w.ws, 'leak');
  // No agent data inside the state directory: the mask is all that keeps it out (nothing else is mounted there).
  const layout: SandboxLayout = { readRoots: [w.root], writeRoots: [w.ws], stateDirectory: w.state };
  const error = await t.throwsAsync(
    run(
      w,
      `cat ${w.state}/receipt.key > ${leak}`,
      {
        beforeSpawn: () => {
          mkdirSync(decoy);
          swap(w.state, decoy); // the tmpfs lands on the decoy
        },
        beforeVerify: () => swap(w.state, decoy), // and back: at the state directory's path, the real one, uncovered
      },
      layout,
    ),
  );
  t.is((error as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
  t.false(existsSync(leak), 'the command never started: the state secret was not read');
});

test('a directory that changes between the host look and the sandbox walk is refused (the check is not fooled by a flip in between)', async (t) => {
  const w = world(t);
  const repo = path.join(w.ws, 'repo');
  gitInit(repo);
  const hooks = path.join(repo, '.git', 'hooks');
  let flipped = false;
  const error = await t.throwsAsync(
    run(w, `echo ran > ${w.ws}/ran`, {
      betweenLooks: (target) => {
        if (target !== hooks || flipped) return;
        flipped = true;
        // A rename in the directory and back: every name is as before, but the directory changed in between.
        renameSync(path.join(repo, '.git', 'description'), path.join(repo, '.git', 'description.x'));
        renameSync(path.join(repo, '.git', 'description.x'), path.join(repo, '.git', 'description'));
      },
    }),
  );
  t.true(flipped);
  t.is((error as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
  t.false(existsSync(path.join(w.ws, 'ran')));
});

test('a call cancelled while its sandbox is being verified is ended, not refused', async (t) => {
  const w = world(t);
  const cancel = new AbortController();
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: w.ws, agentData: w.data });
  const shell: ShellContext = { mode: 'ask', allow: [], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
  const decision = decideShellCommand(`echo ran > ${w.ws}/ran`, shell);
  if (!decision.allow) throw new Error(decision.reason);
  const isolation = createCommandIsolation({ kind: 'bubblewrap', bwrap: bubblewrapPath() }, w.layout, {
    beforeVerify: (pid) => {
      cancel.abort(); // the call's processes are killed: the sandbox may be gone by the time it is looked at
      process.kill(pid, 'SIGKILL');
    },
  });
  const result = await executeBash(decision, { workspace: w.ws, timeoutMs: 60_000, outputCapBytes: 65536, isolation, shell, signal: cancel.signal });
  t.not(result.exitCode, 0);
  t.false(existsSync(path.join(w.ws, 'ran')), 'the command never ran');
});

/** Runs verifySandboxMounts against a real sandbox (held before its release) with hand-written expectations. */
async function verifyInSandbox(t: ExecutionContext, w: World, expectations: (pid: number) => MountExpectation[]): Promise<unknown> {
  let outcome: unknown = 'not verified';
  const result = await run(w, 'true', {
    beforeVerify: (pid) => {
      try {
        verifySandboxMounts(pid, expectations(pid));
        outcome = undefined;
      } catch (error) {
        outcome = error;
      }
    },
  });
  t.is(result.exitCode, 0, result.stderr);
  return outcome;
}

test('a bind that holds another object than the one zotbox opened is refused', async (t) => {
  const w = world(t);
  const other = statSync(w.state);
  const root = statSync(w.root);
  // The read scope's root lies in the sandbox's own /tmp, where nothing of the host is covered: only what it holds tells.
  const tmp: MountExpectation = { kind: 'fresh', target: '/tmp', fsType: 'tmpfs', readOnly: false };
  const outcome = await verifyInSandbox(t, w, () => [tmp, { kind: 'bind', target: w.root, readOnly: true, dev: other.dev, ino: other.ino }]);
  t.is((outcome as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
  const asBound = await verifyInSandbox(t, w, () => [tmp, { kind: 'bind', target: w.root, readOnly: true, dev: root.dev, ino: root.ino }]);
  t.is(asBound, undefined, 'the same bind, as it was made, verifies');
});

test('a bind mounted writable where zotbox asked for read-only is refused, and read-only where it asked for writable', async (t) => {
  const w = world(t);
  const ws = statSync(w.ws);
  const asReadOnly = await verifyInSandbox(t, w, () => [{ kind: 'bind', target: w.ws, readOnly: true, dev: ws.dev, ino: ws.ino }]);
  t.is((asReadOnly as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
  const root = statSync(w.root);
  const asWritable = await verifyInSandbox(t, w, () => [{ kind: 'bind', target: w.root, readOnly: false, dev: root.dev, ino: root.ino }]);
  t.is((asWritable as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
  const asBound = await verifyInSandbox(t, w, () => [{ kind: 'bind', target: w.ws, readOnly: false, dev: ws.dev, ino: ws.ino }]);
  t.is(asBound, undefined, 'the same bind, as it was made, verifies');
});

test('the right object at the right path is not enough: where nothing is mounted, the call is refused', async (t) => {
  const w = world(t);
  const plain = path.join(w.ws, 'plain');
  mkdirSync(plain);
  const stats = statSync(plain);
  const outcome = await verifyInSandbox(t, w, () => [{ kind: 'bind', target: plain, readOnly: false, dev: stats.dev, ino: stats.ino }]);
  t.is((outcome as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
});

test('a tmpfs expected where a bind is mounted is refused', async (t) => {
  const w = world(t);
  const outcome = await verifyInSandbox(t, w, () => [{ kind: 'fresh', target: w.ws, fsType: 'tmpfs', readOnly: false }]);
  t.is((outcome as { code?: string } | undefined)?.code, 'ZB_CONFINEMENT_MOUNT_MOVED');
});
