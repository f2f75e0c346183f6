import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../src/host/command-environment.js';
import { detectBubblewrap, describeConfinement, resolveConfinement, sandboxArguments } from '../../src/host/confinement.js';
import { executeBash } from '../../src/host/executors/bash.js';
import type { ApprovedShell } from '../../src/policy/gate-server.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand } from '../../src/policy/shell-decision.js';
import { tempDir } from '../fixtures/temp.js';

test('--confine off never confines; require without bubblewrap refuses; auto falls back and says why', (t) => {
  t.like(resolveConfinement('off', () => ({ bwrap: '/usr/bin/bwrap' })), { kind: 'none' });
  const error = t.throws(() => resolveConfinement('require', () => ({ reason: 'bubblewrap is not installed' })));
  t.is((error as { code?: string }).code, 'ZB_CONFINEMENT_UNAVAILABLE');
  const fallback = resolveConfinement('auto', () => ({ reason: 'bubblewrap is not installed' }));
  t.deepEqual(fallback, { kind: 'none', reason: 'bubblewrap is not installed' });
  t.regex(describeConfinement(fallback), /^none \(bubblewrap is not installed\): commands run with your permissions/);
  t.deepEqual(resolveConfinement('auto', () => ({ bwrap: '/usr/bin/bwrap' })), { kind: 'bubblewrap', bwrap: '/usr/bin/bwrap' });
});

const detected = detectBubblewrap();
const confinedTest = 'bwrap' in detected ? test : test.skip;
if (!('bwrap' in detected)) test('confinement tests are skipped: bubblewrap cannot run here', (t) => {
  t.log(`skipped: ${detected.reason}`);
  t.pass();
});

/** A workspace, a read-only docs scope, a secret outside every scope; `prepare` runs before the sandbox is built. */
function sandboxed(t: ExecutionContext, prepare: (ws: string) => void = () => undefined) {
  const root = realpathSync(tempDir(t, 'zb-confine-'));
  const ws = path.join(root, 'ws');
  const docs = path.join(root, 'docs');
  const secret = path.join(root, 'secret');
  const data = path.join(root, 'data');
  for (const dir of [ws, docs, secret, data]) mkdirSync(dir);
  prepare(ws);
  writeFileSync(path.join(docs, 'guide.md'), 'read me');
  writeFileSync(path.join(secret, 'key'), 'top secret');
  const scopes = compileScopes({ read: ['${workspace}', docs], write: ['${workspace}', '${agent_data}'] }, { workspace: ws, agentData: data });
  const sandbox = { bwrap: (detected as { bwrap: string }).bwrap, args: sandboxArguments({ readRoots: scopes.read.map((s) => s.root), writeRoots: scopes.write.map((s) => s.root) }) };
  const approve = (command: string, mode: 'ask' | 'allowlist' = 'ask', allow: string[] = []): ApprovedShell => {
    const decision = decideShellCommand(command, { mode, allow, scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES });
    if (!decision.allow) throw new Error(decision.reason);
    return decision;
  };
  const run = (decision: ApprovedShell, confined = true, timeoutMs = 15_000) =>
    executeBash(decision, { agentData: data, workspace: ws, timeoutMs, outputCapBytes: 65536, ...(confined ? { sandbox } : {}) });
  return { ws, docs, secret, data, approve, run };
}

confinedTest('a confined command cannot read outside the scopes (unconfined, it could)', async (t) => {
  const { approve, run, secret } = sandboxed(t);
  const command = approve(`cat ${secret}/key`);
  t.like(await run(command, false), { exitCode: 0, stdout: 'top secret' });
  const confined = await run(command);
  t.not(confined.exitCode, 0);
  t.regex(confined.stderr, /No such file or directory/);
});

confinedTest('a confined command can read a read scope but not write to it, and can write a write scope', async (t) => {
  const { approve, run, docs, ws } = sandboxed(t);
  t.like(await run(approve(`cat ${docs}/guide.md`)), { exitCode: 0, stdout: 'read me' });
  const write = await run(approve(`echo changed > ${docs}/guide.md`));
  t.not(write.exitCode, 0);
  t.regex(write.stderr, /Read-only file system/);
  t.is(readFileSync(path.join(docs, 'guide.md'), 'utf8'), 'read me');
  t.like(await run(approve('echo made > made.txt && cat made.txt')), { exitCode: 0, stdout: 'made\n' });
  t.is(readFileSync(path.join(ws, 'made.txt'), 'utf8'), 'made\n');
});

confinedTest('a confined command cannot open a socket, even to this machine (unconfined, it could)', async (t) => {
  const { approve, run } = sandboxed(t);
  const server = createServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => server.close());
  const port = (server.address() as AddressInfo).port;
  const command = approve(`echo hi > /dev/tcp/127.0.0.1/${port} && echo connected`);
  t.like(await run(command, false), { exitCode: 0, stdout: 'connected\n' });
  const confined = await run(command);
  t.not(confined.exitCode, 0);
  t.is(confined.stdout, '');
});

confinedTest('.git/hooks and .git/config stay read-only inside a writable workspace', async (t) => {
  const { approve, run, ws } = sandboxed(t, (workspace) => {
    mkdirSync(path.join(workspace, '.git'));
    writeFileSync(path.join(workspace, '.git', 'config'), '[core]\n');
  });
  t.true(existsSync(path.join(ws, '.git', 'hooks')), 'hooks is pre-created so it cannot be planted');
  const result = await run(approve('touch .git/hooks/pre-commit; echo "[core] fsmonitor = evil" >> .git/config; echo done > ok.txt; cat ok.txt'));
  t.is(result.stdout, 'done\n');
  t.regex(result.stderr, /Read-only file system/);
  t.false(existsSync(path.join(ws, '.git', 'hooks', 'pre-commit')));
  t.is(readFileSync(path.join(ws, '.git', 'config'), 'utf8'), '[core]\n');
});

confinedTest('an allowlisted plan runs confined, and a timeout still kills it', async (t) => {
  const { approve, run, docs } = sandboxed(t);
  t.like(await run(approve(`cat ${docs}/guide.md`, 'allowlist', ['cat'])), { exitCode: 0, stdout: 'read me' });
  const slow = await run(approve('sleep 30', 'allowlist', ['sleep']), true, 300);
  t.true(slow.timedOut);
  t.true(slow.durationMs < 5000);
});
