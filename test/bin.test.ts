// The installed `zotbox` command: bin/zotbox.js runs the CLI however it is started
// (through its shebang or as `node bin/zotbox.js`) and passes the exit status
// through. When it relaunches with --no-node-snapshot: test/cli/launch.test.ts.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { BIN } from './fixtures/paths.js';
import { ZOTBOX_VERSION } from '../src/version.js';

function runBin(command: string, args: string[]) {
  const { NODE_OPTIONS: _dropped, ...env } = process.env;
  return spawnSync(command, args, { encoding: 'utf8', env, timeout: 30_000 });
}

test('started through its shebang, the bin prints the version', (t) => {
  const result = runBin(BIN, ['--version']);
  t.is(result.status, 0, result.stderr);
  t.is(result.stdout, `${ZOTBOX_VERSION}\n`);
});

test('started as `node bin/zotbox.js`, the bin works', (t) => {
  const result = runBin(process.execPath, [BIN, '--help']);
  t.is(result.status, 0, result.stderr);
  // Each line splits one way only (spaces, then a non-space): the match is linear in the number of commands, never a backtracking blow-up.
  t.regex(result.stdout, /Commands:\n(?: {2}[a-z]+ +[^ \n][^\n]*\n)* {2}pack +Pack a zotfile/);
});

test('the bin passes usage errors through as exit 2 with one line on stderr', (t) => {
  for (const args of [
    [BIN, 'frobnicate'],
    ['--no-node-snapshot', BIN, 'frobnicate'],
  ]) {
    const result = runBin(process.execPath, args);
    t.is(result.status, 2);
    t.is(result.stdout, '');
    t.regex(result.stderr, /^zotbox: error\[ZB_CLI_UNKNOWN_COMMAND\]: [^\n]+\n$/);
  }
});
