// Each pipeline of an allowlisted line is decided again just before it starts
// (gate-rules §10, issue 10 item 3): an earlier command cannot change what an
// approved later one touches. These run unconfined, so that the gate is the only
// thing between a command and the files outside the scopes.
import test, { type ExecutionContext } from 'ava';
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../../src/host/executors/command-environment.js';
import { executeBash } from '../../../src/host/executors/bash.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../../src/policy/shell-decision.js';
import { unconfinedIsolation } from '../../fixtures/isolation.js';
import { tempDir } from '../../fixtures/temp.js';

const MARKER = 'MARKER-outside-7c41';

/**
 * A workspace (the only scope) and, beside it, a directory outside every scope
 * holding a secret. `prepare` plants what the test needs in the workspace.
 */
function world(t: ExecutionContext, prepare: (paths: { ws: string; outside: string }) => void) {
  const root = realpathSync(tempDir(t, 'zb-run-time-'));
  const ws = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  mkdirSync(ws);
  mkdirSync(outside);
  writeFileSync(path.join(outside, 'secret'), MARKER);
  prepare({ ws, outside });
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') });
  const shell: ShellContext = {
    mode: 'allowlist',
    allow: ['cat', 'cp', 'mv', 'rm', 'mkdir', 'touch', 'printf', 'wc', 'false', 'pwd'],
    scopes,
    searchPath: COMMAND_SEARCH_PATH,
    trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES,
  };
  const isolation = unconfinedIsolation({ readRoots: [ws], writeRoots: [ws] });
  /** Decides the line up front (it must be allowed then), and runs it. */
  const run = async (command: string) => {
    const decision = decideShellCommand(command, shell);
    if (!decision.allow) throw new Error(`the line must be allowed up front: ${decision.reason}`);
    return executeBash(decision, { workspace: ws, timeoutMs: 30_000, outputCapBytes: 65536, isolation, shell });
  };
  return { ws, outside, run };
}

/** box/L2 links to the secret outside the scopes: copying box copies the link. */
const plantLinkInBox = ({ ws, outside }: { ws: string; outside: string }) => {
  mkdirSync(path.join(ws, 'box'));
  writeFileSync(path.join(ws, 'box', 'plain.txt'), 'plain');
  symlinkSync(path.join(outside, 'secret'), path.join(ws, 'box', 'L2'));
};

test('a read through a link an earlier command copied into place is denied when it is about to run', async (t) => {
  const { ws, run } = world(t, plantLinkInBox);
  const result = await run('cp -r box copy && cat copy/L2');
  t.true(lstatSync(path.join(ws, 'copy', 'L2')).isSymbolicLink(), 'the cp ran');
  t.like(result, { exitCode: 126, signal: null, stdout: '', stoppedByGate: { code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE', command: 'cat copy/L2' } });
  t.notRegex(JSON.stringify(result), new RegExp(MARKER));
  t.regex(result.stderr, /^\[zotbox: "cat copy\/L2" was denied when it was about to run: cat: read denied: .*\]$/);
});

test('a write through a directory replaced by one holding a link outside is denied when it is about to run', async (t) => {
  const { ws, outside, run } = world(t, ({ ws, outside }) => {
    mkdirSync(path.join(ws, 'target'));
    mkdirSync(path.join(ws, 'evil'));
    symlinkSync(outside, path.join(ws, 'evil', 'link'));
    writeFileSync(path.join(ws, 'payload'), 'planted');
  });
  // Up front, target/link did not exist: target/link/bashrc was a new file in the workspace.
  const result = await run('rm -r target && cp -r evil target && cp payload target/link/bashrc');
  t.true(lstatSync(path.join(ws, 'target', 'link')).isSymbolicLink(), 'the replacement ran');
  t.like(result, { exitCode: 126, stoppedByGate: { code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE', command: 'cp payload target/link/bashrc' } });
  t.false(existsSync(path.join(outside, 'bashrc')));
});

test('nothing after a command denied at run time runs, whatever the connector; what came before has run', async (t) => {
  const { run } = world(t, plantLinkInBox);
  const semicolon = await run('printf before ; cp -r box copy && cat copy/L2 ; printf after');
  t.like(semicolon, { exitCode: 126, stdout: 'before', stoppedByGate: { command: 'cat copy/L2' } });
  // A denial is no failure for || to recover from.
  const or = await run('cp -r box copy2 && cat copy2/L2 || printf after');
  t.like(or, { exitCode: 126, stdout: '', stoppedByGate: { command: 'cat copy2/L2' } });
});

test('a pipeline is decided as one group before any of its commands starts', async (t) => {
  const { ws, run } = world(t, plantLinkInBox);
  // The pipeline's second command is denied, so its first (which would create the file) never starts either.
  const result = await run('cp -r box copy && touch made | cat copy/L2');
  t.like(result, { exitCode: 126, stdout: '', stoppedByGate: { code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE', command: 'cat copy/L2' } });
  t.false(existsSync(path.join(ws, 'made')));
});

test('an allowed line runs all its commands with the same output and status as before', async (t) => {
  const { ws, run } = world(t, ({ ws }) => writeFileSync(path.join(ws, 'f.txt'), 'a\nb\n'));
  const all = await run('printf a && printf b || printf c ; cat f.txt | wc -l ; mkdir made && cp f.txt made/g.txt');
  t.like(all, { exitCode: 0, stdout: 'ab2\n', stderr: '', timedOut: false });
  t.false('stoppedByGate' in all);
  t.is(readFileSync(path.join(ws, 'made', 'g.txt'), 'utf8'), 'a\nb\n');
  t.like(await run('false || printf b ; false'), { exitCode: 1, stdout: 'b' });
  t.like(await run('printf x | false'), { exitCode: 1, stdout: '' });
  t.like(await run('false && printf a'), { exitCode: 1, stdout: '' });
});

test('a cd into a directory an earlier command turned into a link outside is denied when it is about to run', async (t) => {
  const { ws, outside, run } = world(t, ({ ws, outside }) => {
    mkdirSync(path.join(ws, 'd', 'inner'), { recursive: true });
    writeFileSync(path.join(ws, 'd', 'inner', 'secret'), 'harmless');
    mkdirSync(path.join(ws, 'evil'));
    symlinkSync(outside, path.join(ws, 'evil', 'inner'));
  });
  const result = await run('mv d old && mv evil d && cd d/inner && cat secret');
  t.true(lstatSync(path.join(ws, 'd', 'inner')).isSymbolicLink(), 'the moves ran');
  t.like(result, { exitCode: 126, stdout: '', stoppedByGate: { code: 'ZB_POLICY_SHELL_CD', command: 'cd d/inner' } });
  t.notRegex(JSON.stringify(result), new RegExp(MARKER));
  t.is(readFileSync(path.join(outside, 'secret'), 'utf8'), MARKER);
});

test('later commands run from the directory a cd reaches when it runs, and are decided from there', async (t) => {
  const { ws, run } = world(t, ({ ws }) => {
    mkdirSync(path.join(ws, 'd', 'inner'), { recursive: true });
    writeFileSync(path.join(ws, 'd', 'inner', 'key'), 'old key');
    mkdirSync(path.join(ws, 'alt'));
    writeFileSync(path.join(ws, 'alt', 'key'), 'alt key');
    mkdirSync(path.join(ws, 'other'));
    symlinkSync(path.join(ws, 'alt'), path.join(ws, 'other', 'inner'));
  });
  // d/inner becomes a link to alt, inside the scopes: the cd follows it, as bash's would.
  const result = await run('mv d old && mv other d && cd d/inner && cat key && pwd');
  t.like(result, { exitCode: 0, stdout: `alt key${path.join(ws, 'alt')}\n` });
  t.false('stoppedByGate' in result);
});
