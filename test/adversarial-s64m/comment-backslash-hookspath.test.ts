// Review s64m, finding 1: git-config-lines.ts `parseConfigEntries` joins a line ending in a backslash with the next
// one before it looks at what the line is, so a COMMENT ending in "\" swallows the entry below it. git does not: a
// comment runs to the end of its line, and a backslash in it is not a continuation (config.c `parse_value` and
// `git_parse_source` skip comment characters, the newline ends them). User: `.git/config` holds
//   [core]
//   	# hooks used to live in C:\hooks\
//   	hooksPath = scripts/hooks
// git reads core.hookspath=scripts/hooks (`git config --show-origin --list`: seen); zotbox reads no hooksPath, so
// scripts/hooks is neither a hooks directory nor a tree location: not bound read-only, not recorded. One confined call
// rewrites scripts/hooks/pre-commit; the user's `git commit` runs it. Control (the same without the trailing "\"): held.
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit, rewriteHook, userHook } from './fixtures.js';

for (const [title, comment, open] of [
  ['a comment ending in a backslash', '\t# hooks used to live in C:\\hooks\\\n', true],
  ['control: the same comment without the backslash', '\t# hooks used to live in C:\\hooks\n', false],
] as const) {
  test(`${title} before core.hooksPath: the hooks directory is protected`, async (t) => {
    const ws = project(t, { 'src.txt': '1\n', 'one.sh': rewriteHook('scripts/hooks') });
    userHook(ws, 'scripts/hooks');
    appendFileSync(path.join(ws, '.git', 'config'), `[core]\n${comment}\thooksPath = scripts/hooks\n`);
    t.is(git(ws, 'config', 'core.hooksPath').trim(), 'scripts/hooks', 'git reads core.hooksPath');
    writeFileSync(path.join(ws, 'src.txt'), '2\n');
    t.log(open ? 'the open case' : 'the control');
    // SAFE: the agent's hook never ran.
    t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's hook");
  });
}
