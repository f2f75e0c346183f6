// The launcher (src/cli/launch.ts): a command line runs in the first process unless
// its command loads isolated-vm; only then is Node re-executed, once, with
// --no-node-snapshot, and the launcher ends the way the child ended (issue 11).
import test from 'ava';
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { COMMANDS } from '../../src/cli/commands.js';
import { ISOLATED_VM_COMMANDS, commandOf, needsRelaunch, snapshotDisabled } from '../../src/cli/launch.js';
import { REPO_ROOT } from '../fixtures/paths.js';

const PROBE = path.join(REPO_ROOT, 'dist', 'test', 'fixtures', 'launch-probe.js');

const facts = (argv: string[], more: { execArgv?: string[]; nodeOptions?: string; list?: string[] } = {}) => ({
  argv,
  execArgv: more.execArgv ?? [],
  nodeOptions: more.nodeOptions,
  isolatedVmCommands: more.list ?? ['eval'],
});

test('the command is the first word after the global options; --help, --version and options name none', (t) => {
  t.is(commandOf(['eval', 'x']), 'eval');
  t.is(commandOf(['--debug', 'eval']), 'eval');
  t.is(commandOf(['--help']), undefined);
  t.is(commandOf(['-V', 'eval']), undefined);
  t.is(commandOf(['--', 'eval']), undefined);
  t.is(commandOf([]), undefined);
});

test('a command in the list relaunches; the same word as an argument, or help for it, does not', (t) => {
  t.true(needsRelaunch(facts(['eval', 'suite.json'])));
  t.true(needsRelaunch(facts(['--debug', 'eval'])));
  t.false(needsRelaunch(facts(['check', 'eval', 'read', 'x'])));
  t.false(needsRelaunch(facts(['help', 'eval'])));
  t.false(needsRelaunch(facts(['--help'])));
});

test('no relaunch when the snapshot is already off, by flag or NODE_OPTIONS', (t) => {
  t.false(needsRelaunch(facts(['eval'], { execArgv: ['--no-node-snapshot'] })));
  t.false(needsRelaunch(facts(['eval'], { nodeOptions: '--max-old-space-size=512 --no-node-snapshot' })));
  t.true(snapshotDisabled([], '--no-node-snapshot'));
  t.false(snapshotDisabled(['--no-node-snapshot-x'], '--no-node-snapshotx'));
});

test('no command loads isolated-vm in its own process (eval grades in a grader process), so none relaunches', (t) => {
  t.deepEqual(ISOLATED_VM_COMMANDS, []);
  for (const { name } of COMMANDS) t.false(needsRelaunch(facts([name], { list: [...ISOLATED_VM_COMMANDS] })), name);
});

function probe(args: string[]) {
  const { NODE_OPTIONS: _dropped, ...env } = process.env;
  const result = spawnSync(process.execPath, [PROBE, ...args], { encoding: 'utf8', env, timeout: 30_000 });
  return { ...result, ran: result.stdout === '' ? undefined : (JSON.parse(result.stdout) as { execArgv: string[]; argv: string[] }) };
}

test('a listed command runs in a child Node with --no-node-snapshot, with its arguments, and its exit status passes through', (t) => {
  const result = probe(['probe', '3']);
  t.is(result.status, 3, result.stderr);
  t.deepEqual(result.ran, { execArgv: ['--no-node-snapshot'], argv: ['probe', '3'] });
});

test('any other command runs in the first process, without the flag', (t) => {
  const result = probe(['other', '4']);
  t.is(result.status, 4, result.stderr);
  t.deepEqual(result.ran, { execArgv: [], argv: ['other', '4'] });
});

test('a relaunched command that ends by a signal ends the launcher by the same signal', (t) => {
  const result = probe(['probe', 'signal:SIGTERM']);
  t.is(result.signal, 'SIGTERM');
  t.deepEqual(result.ran?.execArgv, ['--no-node-snapshot']);
});

test('SIGTERM sent to the launcher alone stops the relaunched command, and the launcher ends by it', async (t) => {
  const { NODE_OPTIONS: _dropped, ...env } = process.env;
  const launcher = spawn(process.execPath, [PROBE, 'probe', 'wait'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  // The command prints how it ran once it is running in the child.
  const ran = await new Promise<{ execArgv: string[] }>((resolve) => launcher.stdout.once('data', (chunk: Buffer) => resolve(JSON.parse(chunk.toString()) as { execArgv: string[] })));
  t.deepEqual(ran.execArgv, ['--no-node-snapshot']);
  const ended = new Promise<NodeJS.Signals | null>((resolve) => launcher.once('exit', (_code, signal) => resolve(signal)));
  launcher.kill('SIGTERM');
  t.is(await ended, 'SIGTERM');
});
