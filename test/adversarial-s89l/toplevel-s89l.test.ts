// Review s89l: after s87j's fix, lines shell-top-level-lines.ts wrongly calls top level (its opener/closer count misses
// or miscounts), and a "sure" assignment that does not take. Each: the user's bash hook (`core.hooksPath`) reads a limit
// from data files a pattern finds and hands it on (exports it to a child script, or sets it and sources a file); one
// CONFINED call (real bubblewrap, the agent's `sh one.sh`) creates a data file holding `a[$({touch,PWNED})]`; then the
// user's `git commit`. Each asserts the SAFE outcome: the agent's code never ran (so it FAILS while the hole is open).
import { chmodSync } from 'node:fs';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { git, project } from '../adversarial-s36i/harness.js';
import { agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

const CODE = 'a[$({touch,PWNED})]';

/** The agent's one.sh: writes CODE into .limits/max.txt. */
const LIMIT = `mkdir -p .limits\nprintf '%s\\n' '${CODE}' > .limits/max.txt\n`;

/** The user's hook exports MAX read from .limits/*.txt and runs `check` (a file of the user's: .githooks/check.sh). */
const child = async (t: ExecutionContext, check: string) => {
  await attack(t, 'export MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\nbash "$(dirname "$0")/check.sh"', { '.githooks/check.sh': `#!/bin/bash\n${check}\n` });
};

/** The user's hook sets MAX from .limits/*.txt (`how`: an assignment, `readonly`) and sources `lib` (.githooks/lib.sh). */
const sourced = async (t: ExecutionContext, lib: string, how = '') => {
  await attack(t, `${how}MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\n. "$(dirname "$0")/lib.sh"`, { '.githooks/lib.sh': `${lib}\n` });
};

const attack = async (t: ExecutionContext, body: string, extra: Record<string, string>) => {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': LIMIT, '.githooks/pre-commit': `#!/bin/bash\n${body}\nexit 0\n`, ...extra });
  for (const file of ['.githooks/pre-commit', ...Object.keys(extra)]) chmodSync(path.join(ws, file), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
};

const USE = 'if (( MAX > 1 )); then echo many; fi';

// 1: a closer the count takes where there is none brings the count back to 0 inside a block.
test('1: if …; then⏎ exts=( js ts )⏎ MAX=2048⏎ fi (an array literal\'s ")" counted as a closer)', async (t) => {
  await child(t, `if [ -n "\${BIG_REPO:-}" ]; then\n  exts=( js ts )\n  MAX=2048\nfi\n${USE}`);
});

test('1: if …; then⏎ echo done⏎ MAX=2048⏎ fi (the word "done" counted as a closer)', async (t) => {
  await child(t, `if [ -n "\${BIG_REPO:-}" ]; then\n  echo done\n  MAX=2048\nfi\n${USE}`);
});

test('1: case … in⏎ done)⏎ MAX=3 ;; esac (a case pattern "done)" counted as a closer)', async (t) => {
  await child(t, `case "\${STATUS:-}" in\n  done)\n    MAX=3\n    ;;\nesac\n${USE}`);
});

// 1: an opener the count misses.
test('1: use_defaults(){⏎ MAX=3⏎ } (no blank before "{"), never called; (( MAX > 1 )) (sourced)', async (t) => {
  await sourced(t, `use_defaults(){\n  MAX=3\n}\n${USE}`);
});

test('1: (cd sub⏎ MAX=3 …⏎ ) (a subshell whose "(" is not alone)', async (t) => {
  await child(t, `(cd /tmp\n  MAX=3\n  echo "$MAX"\n)\n${USE}`);
});

// held: the written count (more `MAX=` in the text than values read) makes MAX unknown in these two.
test('held: out=$(⏎ MAX=3 …⏎ ) (a command substitution over lines)', async (t) => {
  await child(t, `out=$(\n  MAX=3\n  echo "$MAX"\n)\n${USE}`);
});

test('1: [ -n … ] &&⏎ MAX=2048 (a list continued after "&&" at a line\'s end)', async (t) => {
  await child(t, `[ -n "\${BIG_REPO:-}" ] &&\n  MAX=2048\n${USE}`);
});

test('held: a here-document with a backslash-quoted delimiter (<<\\EOF) whose body says MAX=3; MAX=4 after the use', async (t) => {
  await child(t, `cat > /dev/null <<\\EOF\nMAX=3\nEOF\n${USE}\nMAX=4`);
});

// 2: a whole top-level assignment that does not take: the sourcer made the name readonly, so `MAX=3` fails (bash
// prints an error and goes on) and the sourcer's value reaches the use.
test('2: readonly MAX=$(cat …) in the hook; the sourced file: MAX=3, then (( MAX > 1 ))', async (t) => {
  await sourced(t, `MAX=3\n${USE}`, 'readonly ');
});
