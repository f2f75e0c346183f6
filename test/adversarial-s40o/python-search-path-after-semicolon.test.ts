// Review s40o of issue 21: a Python search-path change written after `;` on an import line — `import sys;
// sys.path.insert(0, "tools/site"); import fmt`, the only way to write it in a `python3 -c '…'` program and a common
// one-liner in files — is not read at all. python-search-path-uses.ts takes every line that starts with `import` or
// `from` as an import statement to its end (`importLine`, line 152) and skips the `sys.path` / `site.addsitedir` uses
// on it, so the directory is neither protected whole (docs/security.md: `sys.path.insert/append`, `site.addsitedir`
// "whole, with the modules the program imports from it there") nor, as an unread use of sys.path would be, refused.
// The write tool rewrites tools/site/fmt.py; the user's commit runs it. The same statements on their own lines are
// refused (control).
import test from 'ava';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const payload = 'open("PWNED", "w").write("agent code ran")\n';
async function commitRuns(t: Parameters<typeof project>[0], files: Record<string, string>): Promise<boolean> {
  const ws = project(t, { ...files, 'tools/site/fmt.py': '\n' });
  t.log(await agentWrites(t, ws, 'tools/site/fmt.py', payload));
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  return existsSync(path.join(ws, 'PWNED'));
}

for (const [name, code] of [
  ['sys.path.insert', 'import sys; sys.path.insert(0, "tools/site"); import fmt'],
  ['site.addsitedir', 'import site; site.addsitedir("tools/site"); import fmt'],
] as const) {
  test(`a search path set after ; on an import line is read: python3 -c, ${name}`, async (t) => {
    t.false(await commitRuns(t, { '.git/hooks/pre-commit': `#!/bin/sh\nexec python3 -c '${code}'\n` }), "the agent-written tools/site/fmt.py ran in the user's pre-commit hook");
  });
  test(`a search path set after ; on an import line is read: a program file, ${name}`, async (t) => {
    t.false(await commitRuns(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 check.py\n', 'check.py': `${code}\n` }), "the agent-written tools/site/fmt.py ran in the user's pre-commit hook");
  });
  test(`control (passes today): the same statements on their own lines: ${name}`, async (t) => {
    t.false(await commitRuns(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 check.py\n', 'check.py': `${code.replace(/; /gu, '\n')}\n` }));
  });
}
