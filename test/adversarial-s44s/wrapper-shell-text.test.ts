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
// Fixed (shell-text-words.ts): the wrappers' and variables' texts are read as scripts, and any other word that parses
// as shell text is read as one too; the over-denial side (a commit message, an echo text: the ordinary write
// accepted) is checked below.
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { project } from '../adversarial-s36i/harness.js';
import { attack, ordinaryWriteAccepted } from '../adversarial-s43r/fixtures.js';

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
  // Bounded: watch runs its text every interval until stopped.
  'timeout 3 watch -n 1 "sh tools/x.sh"',
  'ls src | entr -s "sh tools/x.sh"',
  'expect -c "spawn sh tools/x.sh"',
  'GIT_SSH_COMMAND="sh tools/x.sh" git fetch -q',
  'GIT_EDITOR="sh tools/x.sh" git commit --amend',
  'GIT_SEQUENCE_EDITOR="sh tools/x.sh" git rebase -i HEAD~1',
  'export GIT_PAGER="sh tools/x.sh"; git log',
  'env PAGER="sh tools/x.sh" git log',
  'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0="sh tools/x.sh" git diff',
  'some-unknown-wrapper --cmd "sh tools/x.sh"',
])
  test(`a script a wrapper's shell text runs is refused to the write tool: ${hook.split(' "')[0] ?? hook}`, async (t) => {
    // Not run here (the tool is not installed, or the hook would not reach it in a plain commit): the write is what counts.
    const ws = hookProject(t, hook);
    await attack(t, ws, 'tools/x.sh', () => '#!/bin/sh\necho changed\n');
  });

test('git --exec-path=DIR: the programs git runs from DIR are refused to the write tool (git lint runs tools/git-lint)', async (t) => {
  const ws = project(t, { '.git/hooks/pre-commit': '#!/bin/sh\ngit --exec-path=tools lint\n', 'tools/git-lint': '#!/bin/sh\necho lint ok\n' });
  chmodSync(path.join(ws, 'tools/git-lint'), 0o755);
  await attack(t, ws, 'tools/git-lint', shellPayload);
});

for (const hook of [
  // An apostrophe: text sh cannot parse runs nothing, so it names nothing (and refuses no writer).
  `git commit -q --allow-empty -m "don't break the build"`,
  // An echo's words are printed, never run: its command substitution is the hook's own (read as such).
  'echo "$(git rev-parse --short HEAD): checking"',
  'script -qec "sh tools/x.sh" /dev/null',
])
  test(`over-denial: a hook with a commit message, an echo text or a wrapper still accepts an unrelated write: ${hook.split(' ')[0] ?? hook}`, async (t) => {
    await ordinaryWriteAccepted(t, hookProject(t, hook));
  });

test('control (passes today): flock -c', async (t) => {
  await attack(t, hookProject(t, 'flock /tmp/zb-s44s.lock -c "sh tools/x.sh"'), 'tools/x.sh', shellPayload);
});
