// Review s44s of issue 21: docs/security.md says "shell text in any word of a command is read as a script of its own
// (`sh -c` behind any wrapper, `bash -c --`, `eval`, `trap`, `flock -c`, `su -c`, `env -S`, an `alias` body, a `git
// -c` value)". Only those spellings are: a program that takes shell text zotbox does not know has its text taken as
// one word (the file `sh tools/x.sh`), so what the text runs is neither protected nor unresolved. Hooks use such
// wrappers: `script -qec "npx lint-staged" /dev/null` (util-linux `script`, the usual way to give a hook's linter a
// TTY: it runs the text with `$SHELL -c`), `nix-shell --run "…"` (Nix users' hooks), git's own shell-text options
// and variables (`git rebase -x`, `git difftool -x`, `GIT_EXTERNAL_DIFF=… git diff`, as `git -c diff.external` is
// read), `sg GROUP -c`, `watch "…"`, `tmux new-session "…"`, `parallel ::: "…"`, `entr -s`, `expect -c "spawn …"`
// (toolFileReferences-level checks here: all accepted the write). The write tool rewrites `tools/x.sh`; the user's
// commit runs it (end to end: `script`, installed here, and git's external diff). Control: `flock -c` (read today).
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { attack } from '../adversarial-s43r/fixtures.js';

const shellPayload = (marker: string) => `#!/bin/sh\necho agent code ran > ${JSON.stringify(marker)}\n`;

function hookProject(t: Parameters<typeof project>[0], hook: string): string {
  const ws = project(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, 'tools/x.sh': '#!/bin/sh\necho lint ok\n' });
  chmodSync(path.join(ws, 'tools/x.sh'), 0o755);
  return ws;
}

for (const hook of [
  // util-linux script: `-c TEXT` runs `$SHELL -c TEXT` in a pseudo-terminal (-e: its exit status).
  'script -qec "sh tools/x.sh" /dev/null',
  // git runs GIT_EXTERNAL_DIFF (a command line, through the shell) for each changed path, as it does diff.external.
  'GIT_EXTERNAL_DIFF="sh tools/x.sh" git diff --cached > /dev/null',
])
  test(`a script a wrapper's shell text runs is protected: ${hook.split(/[ =]/u)[0] ?? hook}`, async (t) => {
    await attack(t, hookProject(t, hook), 'tools/x.sh', shellPayload);
  });

for (const hook of [
  'nix-shell --run "sh tools/x.sh"',
  'git rebase -x "sh tools/x.sh" HEAD',
  'git difftool -y -x "sh tools/x.sh" --cached',
  'sg staff -c "sh tools/x.sh"',
  'parallel ::: "sh tools/x.sh"',
  'tmux new-session -d "sh tools/x.sh"',
])
  test(`a script a wrapper's shell text runs is refused to the write tool: ${hook.split(' "')[0] ?? hook}`, async (t) => {
    // Not run here (the tool is not installed, or the hook would not reach it in a plain commit): the write is what counts.
    const ws = hookProject(t, hook);
    await attack(t, ws, 'tools/x.sh', () => '#!/bin/sh\necho changed\n');
  });

test('control (passes today): flock -c', async (t) => {
  await attack(t, hookProject(t, 'flock /tmp/zb-s44s.lock -c "sh tools/x.sh"'), 'tools/x.sh', shellPayload);
});
