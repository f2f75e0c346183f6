// A variable a tool runs as a command (GIT_EDITOR, GIT_SEQUENCE_EDITOR, EDITOR, VISUAL, GIT_PAGER, PAGER, GIT_SSH,
// GIT_ASKPASS, SSH_ASKPASS ...) whose value is one word naming a workspace script: the script is run (protected, and
// read by its `#!` line as a script a hook runs: what it sources is protected too), in a hook and in an .envrc, in
// every spelling of the assignment. Expected sets by hand (shell-text-words.ts' COMMAND_VARIABLES).
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { tempDir } from '../../../fixtures/temp.js';

function protectedBy(t: Parameters<typeof tempDir>[0], files: Readonly<Record<string, string>>, entries: readonly string[] = []) {
  const ws = path.join(realpathSync(tempDir(t, 'zb-command-variable-')), 'ws');
  for (const [name, text] of Object.entries({ 'tools/run.sh': '#!/bin/sh\n. tools/lib.sh\n', 'tools/lib.sh': '', 'src/app.js': '', ...files })) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), text);
  }
  const found = toolFileReferences(
    entries.map((entry) => path.join(ws, entry)),
    [ws],
    { hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }], environment: { HOME: '/nonexistent-home' } },
  );
  return { paths: new Set(found.locations.map((location) => path.relative(ws, location.path))), unresolved: found.unresolved };
}

const hooks = [
  'GIT_EDITOR=tools/run.sh git commit --amend',
  'env GIT_SEQUENCE_EDITOR=./tools/run.sh git rebase -i HEAD~2',
  'EDITOR=tools/run.sh\nexport EDITOR\ngit commit',
  'export VISUAL="$PWD/tools/run.sh"\ngit commit',
  'GIT_PAGER=tools/run.sh git log',
  'PAGER=tools/run.sh git log',
  'GIT_SSH=tools/run.sh git fetch',
  'GIT_ASKPASS=tools/run.sh git push',
  'SSH_ASKPASS=tools/run.sh git push',
];

for (const hook of hooks)
  test(`a one-word command variable naming a script, in a hook, runs it (and what it sources): ${hook.replace(/\n/gu, '; ')}`, (t) => {
    const { paths, unresolved } = protectedBy(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n` });
    t.deepEqual(unresolved, []);
    for (const expected of ['tools/run.sh', 'tools/lib.sh']) t.true(paths.has(expected), expected);
    t.false(paths.has('src/app.js'));
  });

for (const envrc of ['export GIT_SSH=tools/run.sh\n', 'EDITOR=tools/run.sh\nexport EDITOR\n', 'export VISUAL=./tools/run.sh\n'])
  test(`a one-word command variable naming a script, in an .envrc, runs it (and what it sources): ${envrc.trim().replace(/\n/gu, '; ')}`, (t) => {
    const { paths, unresolved } = protectedBy(t, { '.envrc': envrc }, ['.envrc']);
    t.deepEqual(unresolved, []);
    for (const expected of ['tools/run.sh', 'tools/lib.sh']) t.true(paths.has(expected), expected);
  });

test('a one-word command variable naming a Python script: its imports beside it are read by its #! line', (t) => {
  const { paths } = protectedBy(t, { '.git/hooks/pre-commit': '#!/bin/sh\nGIT_PAGER=tools/pager.py git log\n', 'tools/pager.py': '#!/usr/bin/env python3\nimport helper\n', 'tools/helper.py': '' });
  for (const expected of ['tools/pager.py', 'tools/helper.py']) t.true(paths.has(expected), expected);
});
