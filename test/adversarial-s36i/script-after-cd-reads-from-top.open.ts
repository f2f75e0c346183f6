// Severity: high. Class: "followed-script-working-directory" — a hook moves into a package and runs its script
// (`cd web && sh scripts/lint.sh`, the monorepo's usual hook). The reader resolves scripts/lint.sh from every directory
// a cd moved to (web/scripts/lint.sh is protected), but then reads that script with the TOP of the repository as its
// working directory (tool-file-references.ts followScript/pending keep `base`), while it runs in web/. So what the
// followed script names relative to where it runs (`sh tools/check` → web/tools/check) is resolved as ./tools/check,
// and web/tools/check stays writable. The same holds for `env -C DIR`, a task's cwd and lefthook's `root:`.
// Fix direction: carry the working directory a word was resolved from (the cd/env -C/root/cwd) with each followed
// script, and read it from there (from every candidate directory when several are possible).
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from './harness.js';

test('a file the script a hook runs after `cd` names relative to that directory is not writable', async (t) => {
  const ws = project(t, {
    '.git/hooks/pre-commit': '#!/bin/sh\ncd web && sh scripts/lint.sh\n',
    'web/scripts/lint.sh': 'sh tools/check\n',
    'web/tools/check': 'echo checked\n',
  });
  const pwned = path.join(path.dirname(ws), 'PWNED');
  const output = await agentWrites(t, ws, 'web/tools/check', `touch ${JSON.stringify(pwned)}\n`);
  t.regex(output, /denied/u, output);
  git(ws, 'commit', '-q', '--allow-empty', '-m', 'next');
  t.false(existsSync(pwned), 'the pre-commit hook ran web/tools/check written by the agent');
});
