// Review s87j: after s85h's fixes, what `outsideValues` (shell-evaluated-values.ts) still accepts: a name a child
// script or a sourced file takes from its caller (the hook exports it, or sets it and sources the file) whose first
// mention is an assignment at a line's start that does NOT surely run first, or that reads the name itself. Each: the
// user's bash hook (`core.hooksPath`) reads a limit from data files a pattern finds and hands it on; one CONFINED call
// (real bubblewrap, the agent's `sh one.sh`) creates a data file holding `a[$({touch,PWNED})]`; then the user's
// `git commit`. Each asserts the SAFE outcome: the agent's code never ran (so it FAILS while the hole is open).
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

/** The user's hook sets MAX from .limits/*.txt and sources `lib` (.githooks/lib.sh). */
const sourced = async (t: ExecutionContext, lib: string) => {
  await attack(t, 'MAX=$(cat .limits/*.txt 2>/dev/null || echo 3)\n. "$(dirname "$0")/lib.sh"', { '.githooks/lib.sh': `${lib}\n` });
};

const attack = async (t: ExecutionContext, body: string, extra: Record<string, string>) => {
  const ws = project(t, { 'src.txt': '1\n', 'one.sh': LIMIT, '.githooks/pre-commit': `#!/bin/bash\n${body}\nexit 0\n`, ...extra });
  for (const file of ['.githooks/pre-commit', ...Object.keys(extra)]) chmodSync(path.join(ws, file), 0o755);
  git(ws, 'config', 'core.hooksPath', '.githooks');
  // SAFE: the agent's code never ran.
  t.false(await agentThenUserCommit(t, ws), "the user's git commit ran the agent's code");
};

const USE = 'if (( MAX > 1 )); then echo many; fi';

// 1: the first mention is an assignment at a line's start, but inside a block that may not run: the caller's value stays.
test('1: if [ -n "$CI" ]; then⏎ MAX=2048⏎ fi (an override on CI only), then (( MAX > 1 ))', async (t) => {
  await child(t, `if [ -n "$CI" ]; then\n  MAX=2048\nfi\n${USE}`);
});

test('1: case "$(uname)" in Darwin)⏎ MAX=10 ;; esac, then (( MAX > 1 ))', async (t) => {
  await child(t, `case "$(uname)" in\n  Darwin)\n    MAX=10\n    ;;\nesac\n${USE}`);
});

test('1: while read …; do⏎ MAX=… done (a loop body that may run no time), then (( MAX > 1 ))', async (t) => {
  await child(t, `while IFS= read -r line; do\n  MAX=5\ndone < /dev/null\n${USE}`);
});

test('1: a function that sets MAX=3, defined first, never called first; (( MAX > 1 )) (sourced)', async (t) => {
  await sourced(t, `use_defaults() {\n  MAX=3\n}\n${USE}`);
});

test('1: f() {⏎ local MAX=3 …} (local to f), then (( MAX > 1 )) outside f', async (t) => {
  await child(t, `f() {\n  local MAX=3\n  echo "$MAX"\n}\nf\n${USE}`);
});

test('1: (⏎ MAX=3 …⏎ ) (a subshell), then (( MAX > 1 ))', async (t) => {
  await child(t, `(\n  MAX=3\n  echo "$MAX"\n)\n${USE}`);
});

test('1: MAX=3 true (a prefix: not set for the script), then (( MAX > 1 ))', async (t) => {
  await child(t, `MAX=3 true\n${USE}`);
});

test('1: a here-document line "MAX = 3" (no assignment), then (( MAX > 1 )), MAX=4 after', async (t) => {
  await child(t, `cat > /dev/null <<EOF\nMAX = 3\nEOF\n${USE}\nMAX=4`);
});

// 2: the first mention IS an assignment at a line's start, but its value reads the name itself: `seen` takes the
// cycle for harmless, so the caller's value is never checked.
test('2: MAX=$(( MAX * 1024 )) (KB to bytes in place), then (( MAX > 1 ))', async (t) => {
  await child(t, `MAX=$(( MAX * 1024 ))\n${USE}`);
});

test('2: MAX="$MAX" (sourced), then (( MAX > 1 ))', async (t) => {
  await sourced(t, `MAX="$MAX"\n${USE}`);
});

test('held: [ -n "$MAX" ] || MAX=4 (s85h 4, fixed), then (( MAX > 1 ))', async (t) => {
  await child(t, `[ -n "$MAX" ] || MAX=4\n${USE}`);
});
