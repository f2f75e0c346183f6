// Review s46k of issue 21: a shell's startup file in a write scope (a workspace that is, or holds, the user's home:
// `.bashrc`, `.zshenv`, `.profile`) is protected, but it was not read at all: the write tool rewrote what it sources
// (or what that file sources in turn), and the user's next shell (here: one whose home is the workspace, started
// there) ran it unconfined. Fixed: shell-startup-sources.ts reads each `source`/`.` by the
// shell's lexer, down the chain; a name it cannot spell out is unresolved.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const shellPayload = (marker: string) => `echo pwned > ${JSON.stringify(marker)}\n`;

/** The user's shell with the workspace as its home, as a login (`bash -l`: .profile) or interactive (`bash -i`: .bashrc) one. */
function userShell(ws: string, mode: '-i' | '-l'): void {
  try {
    execFileSync('bash', [mode, '-c', 'true'], { cwd: ws, env: { PATH: process.env.PATH ?? '', HOME: ws }, stdio: 'ignore' });
  } catch {
    // what the startup file ran is what counts
  }
}

const cases = [
  ['.bashrc sources a file', { '.bashrc': 'alias g=git\nsource tools/env.sh\n' }, '-i', 'tools/env.sh'],
  ['.bashrc sources a file, which sources another', { '.bashrc': '[ -f tools/env.sh ] && . tools/env.sh\n', 'tools/env.sh': 'export X=1\n. tools/more.sh\n' }, '-i', 'tools/more.sh'],
  ['.profile sources a file, which sources another behind if', { '.profile': '. tools/env.sh\n', 'tools/env.sh': 'if [ -d tools ]; then\n  source tools/login.sh\nfi\n' }, '-l', 'tools/login.sh'],
] as const;

for (const [name, files, mode, target] of cases)
  test(`what a shell startup file in the workspace sources is protected: ${name}`, async (t) => {
    const ws = project(t, { 'tools/env.sh': 'export X=1\n', 'tools/more.sh': 'export Y=1\n', 'tools/login.sh': 'export Z=1\n', 'src/app.js': '', ...files });
    const marker = path.join(path.dirname(ws), 'PWNED');
    const before = readFileSync(path.join(ws, target), 'utf8');
    t.log(await agentWrites(t, ws, target, shellPayload(marker)));
    userShell(ws, mode);
    t.false(existsSync(marker), "the agent-written file ran in the user's shell");
    t.is(readFileSync(path.join(ws, target), 'utf8'), before, 'the agent-written file was neither refused nor put back');
  });

test('over-denial: with a .bashrc that sources a file, an ordinary write is accepted', async (t) => {
  const ws = project(t, { '.bashrc': 'source tools/env.sh\n', 'tools/env.sh': 'export X=1\n', 'src/app.js': '' });
  t.log(await agentWrites(t, ws, 'src/other.js', 'console.log(3);\n'));
  t.true(existsSync(path.join(ws, 'src/other.js')), 'an ordinary write (src/other.js, sourced by nothing) was refused');
});
