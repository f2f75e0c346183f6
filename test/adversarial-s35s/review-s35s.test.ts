// Review s35s: tmux's startup files are not protected. tmux (installed here, 3.3a) reads `~/.tmux.conf`, then
// `$XDG_CONFIG_HOME/tmux/tmux.conf` (default `~/.config/tmux/tmux.conf`), whenever it starts its server (the first
// `tmux` of a login), and runs every `run-shell` command in them. A workspace may be the home directory (as for the
// .lesskey and .selected_editor rows of review s33r), and neither name is in the table (policy/protected-files.ts).
// Each test asserts the SAFE outcome (refused or put back, and tmux runs nothing of the agent's); both FAILED on
// eea6013d and pass since session 29's fix (README.md "Status").
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { agentRun, project } from '../adversarial-s36i/harness.js';
import { tempDir } from '../fixtures/temp.js';

/**
 * Starts a tmux server as the user whose home is `home` (a private socket directory), then stops it. A config's
 * run-shell runs before the server takes the next command, so a second command returning means the config ran.
 */
function startTmux(t: ExecutionContext, home: string): void {
  const sockets = tempDir(t, 'zb-s35s-tmux-');
  const env = { PATH: process.env.PATH ?? '', HOME: home, TMUX_TMPDIR: sockets, TERM: 'xterm' };
  try {
    execFileSync('tmux', ['-L', 's35s', 'new-session', '-d', 'sleep 3'], { env, stdio: 'ignore', timeout: 10_000 });
    execFileSync('tmux', ['-L', 's35s', 'run-shell', 'true'], { env, stdio: 'ignore', timeout: 10_000 });
  } finally {
    try {
      execFileSync('tmux', ['-L', 's35s', 'kill-server'], { env, stdio: 'ignore', timeout: 10_000 });
    } catch {
      // the server had already ended
    }
  }
}

test('the write tool may not create ~/.tmux.conf (tmux runs its run-shell commands when its server starts)', async (t) => {
  const home = project(t, { 'notes.md': 'notes\n' });
  const marker = path.join(home, 'PWNED-tmux');
  // The write tool's refusal is the tool call's error, which the run goes on past: the file is never written.
  await agentRun(t, home, '.tmux.conf', `run-shell "touch ${marker}"\n`);
  t.false(existsSync(path.join(home, '.tmux.conf')), 'the write tool wrote .tmux.conf');
  startTmux(t, home);
  t.false(existsSync(marker), 'tmux ran the run-shell line of the .tmux.conf the agent wrote');
});

test('a confined command may not create ~/.config/tmux/tmux.conf (read at every tmux server start)', async (t) => {
  const home = project(t, { 'notes.md': 'notes\n' });
  mkdirSync(path.join(home, '.config'));
  const marker = path.join(home, 'PWNED-xdg-tmux');
  const script = `mkdir -p .config/tmux\nprintf '%s\\n' 'run-shell "touch ${marker}"' > .config/tmux/tmux.conf\n`;
  const { status } = await agentRun(t, home, 'make-config.sh', script, 'sh make-config.sh');
  startTmux(t, home);
  t.false(existsSync(marker), 'tmux ran the run-shell line of the ~/.config/tmux/tmux.conf the agent made');
  t.not(status, 0, 'zotbox let the command that made .config/tmux/tmux.conf through without a stop');
});
