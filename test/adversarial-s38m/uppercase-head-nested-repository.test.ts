// Review s38m of issue 21: the closed world of a git directory is judged only when zotbox thinks git opens it
// (git-directory-state.ts opensAsRepository). Its test for "a file that starts like an object id" is lowercase
// only, `/^(ref:|[0-9a-f]{40})/`, but git's validate_headref and its ref reader take hex in either case
// (get_oid_hex, hexval_table). So a repository the agent's command makes (`git init` in a subdirectory, one commit)
// whose HEAD it then rewrites to the commit's id in UPPERCASE is "not usable" to zotbox: undoGitDirectoryChanges
// returns nothing for it, and the hook the command wrote there is left. The user's own `git commit` in that
// directory opens the repository (HEAD resolves) and runs the hook, unconfined.
//
// Safe outcome asserted: the hook the agent's command left is gone (or the run was stopped and undone), and the
// user's commit in the directory does not run it.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../fixtures/temp.js';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

for (const [name, caseFilter] of [
  ['lowercase (control: passes today)', ''],
  ['UPPERCASE', ' | tr a-f A-F'],
] as const)
  test(`a nested repository whose HEAD is an object id in ${name} keeps no hook the agent wrote`, async (t) => {
    const ws = project(t, { 'README.md': 'hi\n', 'vendor/lib/README': 'a vendored library\n' });
    const marker = path.join(tempDir(t, 'zb-s38m-marker-'), 'PWNED');
    const script = [
      'set -e',
      'cd vendor/lib',
      'git init -q',
      'git -c user.name=a -c user.email=a@example.com commit -q --allow-empty -m vendored',
      `printf '#!/bin/sh\\ntouch ${marker}\\n' > .git/hooks/pre-commit`,
      'chmod +x .git/hooks/pre-commit',
      `git rev-parse HEAD${caseFilter} > .git/HEAD.tmp`,
      'mv .git/HEAD.tmp .git/HEAD',
      '',
    ].join('\n');
    t.log(await agentWrites(t, ws, 'tools/vendor.sh', script, 'sh tools/vendor.sh'));
    const hook = path.join(ws, 'vendor/lib/.git/hooks/pre-commit');
    t.log(`hook left: ${String(existsSync(hook))}`);
    // The user's ordinary commit in the vendored directory.
    mkdirSync(path.join(ws, 'vendor/lib'), { recursive: true });
    try {
      execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', 'commit', '-q', '--allow-empty', '-m', 'update'], {
        cwd: path.join(ws, 'vendor/lib'),
        stdio: 'ignore',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/nonexistent' },
      });
    } catch {
      // whatever git did afterwards, what counts is what it ran
    }
    t.false(existsSync(marker), "the user's git commit ran the hook the agent's command left in a repository with an uppercase HEAD");
    t.false(existsSync(hook), 'the hook the agent wrote in a repository it made is still there');
  });
