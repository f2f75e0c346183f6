// Toolchains where developers install them (issue 24 §4): a second npm installed
// with npm itself under a temporary prefix, found through --program-path and run
// confined by a real `zotbox run --replay`; program directories that the agent or
// someone the sandbox can reach could change are refused before anything runs.
import test from 'ava';
import { chmodSync, chownSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';
import { installOtherNpm, replayCommands, type OtherNpm } from '../fixtures/workflow-run.js';

let npm: OtherNpm | undefined;
test.before(() => {
  npm = installOtherNpm();
});
test.after.always(() => npm?.remove());
function other(): OtherNpm {
  if (npm === undefined) throw new Error('the second npm was not installed');
  return npm;
}

function fixture(t: Parameters<typeof tempDir>[0]): { root: string; ws: string } {
  const root = realpathSync(tempDir(t, 'zb-program-path-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  return { root, ws };
}

test('npm installed under a temporary prefix is found through --program-path and runs confined', async (t) => {
  const { root, ws } = fixture(t);
  const run = await replayCommands(root, ws, ['npm --version', 'node --version'], ['npm', 'node'], ['--program-path', other().bin]);
  t.is(run.status, 0, run.stderr);
  const [version, node] = run.results;
  t.true(version?.allowed, version?.error);
  t.is(version?.exitCode, 0, version?.stderr);
  t.is(version?.stdout.split('.')[0], String(other().major), 'the npm of the program directory ran, not the machine one');
  t.is(node?.exitCode, 0, 'node is still found on the fixed path');
});

test('zotbox check decides a program of a program directory as the real file behind it', async (t) => {
  const { root, ws } = fixture(t);
  await replayCommands(root, ws, [], ['npm']); // writes the agent
  const checked = await runCliCaptured(['check', path.join(root, 'agent'), 'bash', 'npm --version', '--cwd', ws, '--program-path', other().bin, '--json'], {
    env: { ZOTBOX_HOME: path.join(root, 'state') },
  });
  t.is(checked.status, 0, checked.stdout);
  const step = (JSON.parse(checked.stdout) as { commands: { pipeline: { program: string }[] }[] }).commands[0]?.pipeline[0];
  t.is(step?.program, path.join(realpathSync(other().prefix), 'lib/node_modules/npm/bin/npm-cli.js'));
});

test('doctor and inspect show the search path in force, program directories first', async (t) => {
  const { root, ws } = fixture(t);
  await replayCommands(root, ws, [], ['npm']);
  const env = { ZOTBOX_HOME: path.join(root, 'state') };
  const bin = realpathSync(other().bin);
  const inspect = await runCliCaptured(['inspect', path.join(root, 'agent'), '--program-path', other().bin, '--json'], { env });
  t.is(inspect.status, 0, inspect.stderr);
  t.deepEqual((JSON.parse(inspect.stdout) as { search_path: string[] }).search_path, [bin, '/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin']);
  const doctor = await runCliCaptured(['doctor', '--program-path', other().bin], { env });
  t.true(doctor.stdout.includes(`search path of commands: ${bin}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin\n`), doctor.stdout);
});

test('a program directory inside a write scope of the run is refused, and nothing runs', async (t) => {
  const { root, ws } = fixture(t);
  const bin = path.join(ws, 'tools', 'bin');
  mkdirSync(bin, { recursive: true });
  const run = await replayCommands(root, ws, ['ls'], ['ls'], ['--program-path', bin]);
  t.is(run.status, 1);
  t.regex(run.stderr, /ZB_PROGRAM_PATH_UNSAFE/);
  t.regex(run.stderr, /write scope/);
  t.deepEqual(run.results, []);
});

test('a world-writable program directory is refused', async (t) => {
  const { root, ws } = fixture(t);
  const bin = path.join(root, 'shared', 'bin');
  mkdirSync(bin, { recursive: true });
  chmodSync(bin, 0o777);
  const run = await replayCommands(root, ws, ['ls'], ['ls'], ['--program-path', bin]);
  t.is(run.status, 1);
  t.regex(run.stderr, /ZB_PROGRAM_PATH_UNSAFE/);
  t.regex(run.stderr, /world-writable/);
  t.deepEqual(run.results, []);
});

test("a program directory whose parent is owned by the sandbox's uid is refused", async (t) => {
  const { root, ws } = fixture(t);
  const bin = path.join(root, 'nobody', 'bin');
  mkdirSync(bin, { recursive: true });
  chownSync(path.dirname(bin), 65534, 65534);
  const run = await replayCommands(root, ws, ['ls'], ['ls'], ['--program-path', bin]);
  t.is(run.status, 1);
  t.regex(run.stderr, /ZB_PROGRAM_PATH_UNSAFE/);
  t.regex(run.stderr, /uid 65534/);
});

test("a program linked from a program directory runs confined: the link's target is bound read-only", async (t) => {
  const { root, ws } = fixture(t);
  const tools = path.join(root, 'tools');
  const elsewhere = path.join(root, 'elsewhere');
  mkdirSync(tools);
  mkdirSync(elsewhere);
  writeFileSync(path.join(elsewhere, 'hello.sh'), '#!/bin/sh\necho "hello from $(dirname "$0")"\n', { mode: 0o755 });
  symlinkSync(path.join(elsewhere, 'hello.sh'), path.join(tools, 'hello'));
  const run = await replayCommands(root, ws, ['hello'], ['hello'], ['--program-path', tools]);
  t.is(run.status, 0, run.stderr);
  t.is(run.results[0]?.exitCode, 0, run.results[0]?.error ?? run.results[0]?.stderr);
  t.is(run.results[0]?.stdout, `hello from ${tools}\n`);
});
