// Review s70s, finding 2: a shell startup file's `source tools/cache/../env.sh` (shell-startup-sources.ts
// shellSourcedNames: `path.normalize` of a relative target; startup-file-sources.ts for the other languages joins
// likewise) is protected as `tools/env.sh`, with no climb check (lexical-climb.ts is applied to hook/script words and
// git config values, not to startup-file directives). The shell walks `tools/cache/..` through `cache`: one confined
// call replaces `tools/cache` with a link to `../evil/a/b` and writes `evil/a/env.sh`; nothing protected changed, so
// the call ends with no stop, and the user's shell then sources the agent's file. SAFE outcome asserted: the user's
// shell never runs the agent's code. Control (held): the same call writing tools/env.sh itself is stopped.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const swap = (payload: string) => `set -e
PAYLOAD='${payload}'
mkdir -p evil/a/b
printf '%s\\n' "$PAYLOAD" > evil/a/env.sh
rm -rf tools/cache
ln -s ../evil/a/b tools/cache
`;

for (const [name, line, run] of [
  [
    '.bashrc',
    'source tools/cache/../env.sh\n',
    (ws: string) => execFileSync('bash', ['--rcfile', path.join(ws, '.bashrc'), '-i', '-c', 'true'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: ws }, stdio: 'ignore' }),
  ],
  ['.profile', '. tools/cache/../env.sh\n', (ws: string) => execFileSync('sh', ['-c', '. ./.profile'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: ws }, stdio: 'ignore' })],
  // gdb, with the user's `set auto-load safe-path /` (else gdb does not read a project's .gdbinit): its `source` (startup-file-sources.ts, path.join).
  [
    '.gdbinit',
    'source tools/cache/../env.sh\n',
    (ws: string) => execFileSync('gdb', ['-q', '-iex', 'set auto-load safe-path /', '-batch'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: ws }, stdio: 'ignore' }),
  ],
] as const) {
  test(`${name} ${line.trim()}: the user's shell runs the user's env.sh only`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': swap(name === '.gdbinit' ? 'shell touch PWNED' : 'touch PWNED'), 'tools/env.sh': 'true\n', 'tools/cache/.keep': '', [name]: line });
    t.log('run:', (await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh')).slice(-1500));
    try {
      run(ws);
    } catch (error) {
      t.log('user shell failed:', String(error).slice(0, 300));
    }
    t.false(existsSync(path.join(ws, 'PWNED')), "the user's shell sourced the agent's file");
  });
}

test('control: a call that rewrites tools/env.sh itself (the file .bashrc sources) is stopped', async (t) => {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': "printf 'touch PWNED\\n' > tools/env.sh\n", 'tools/env.sh': 'true\n', 'tools/cache/.keep': '', '.bashrc': 'source tools/cache/../env.sh\n' });
  const out = await agentWrites(t, ws, 'x1.txt', 'x\n', 'sh one.sh');
  t.log('run:', out.slice(-1500));
  try {
    execFileSync('bash', ['--rcfile', path.join(ws, '.bashrc'), '-i', '-c', 'true'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: ws }, stdio: 'ignore' });
  } catch (error) {
    t.log('user shell failed:', String(error).slice(0, 300));
  }
  t.false(existsSync(path.join(ws, 'PWNED')));
});
