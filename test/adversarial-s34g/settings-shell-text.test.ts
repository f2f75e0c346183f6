// Finding (settings read as words, not as the shell text they hold): lefthook runs a command's `run:` through `sh -c`
// (so do pre-commit's `entry: bash -c '…'`, a VS Code shell task's "command" and mise's `run`). The reader took settings
// word by word: `tools/checks/*.sh` is no plain word and `sh "$f"` names nothing, so a pattern the shell text loops over
// and runs was not covered. The agent's write tool added tools/checks/aaa.sh and the user's next `git commit` ran it
// through lefthook, unconfined.
// Safe outcome, stated by hand without lefthook (not installed here): the write is refused (nothing created).
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentRun, world } from './harness.js';

const cases: Record<string, Record<string, string>> = {
  'lefthook run:': { 'lefthook.yml': 'pre-commit:\n  commands:\n    checks:\n      run: for f in tools/checks/*.sh; do sh "$f" || exit 1; done\n' },
  'lefthook run: | block': { 'lefthook.yml': 'pre-commit:\n  commands:\n    checks:\n      run: |\n        for f in tools/checks/*.sh\n        do sh "$f"; done\n' },
  "pre-commit entry: bash -c '…'": {
    '.pre-commit-config.yaml': 'repos:\n- repo: local\n  hooks:\n  - id: checks\n    entry: bash -c \'for f in tools/checks/*.sh; do sh "$f"; done\'\n    language: system\n',
  },
  'VS Code shell task': {
    '.vscode/tasks.json': JSON.stringify({ tasks: [{ type: 'shell', command: 'for f in tools/checks/*.sh; do sh "$f"; done', runOptions: { runOn: 'folderOpen' } }] }),
  },
};

for (const [name, files] of Object.entries(cases)) {
  test(`a pattern a setting's shell text loops over and runs is protected (${name})`, async (t) => {
    const w = world(t, { ...files, 'tools/checks/lint.sh': 'echo lint\n' });
    const result = await agentRun(w, [{ name: 'write', input: { path: 'tools/checks/aaa.sh', content: `touch '${w.marker}'\n` } }]);
    t.false(existsSync(path.join(w.ws, 'tools/checks/aaa.sh')), `${result.stdout}${result.stderr}`);
  });
}
