// Severity: high. Class: "git-config-in-the-environment" — an .envrc (direnv runs it in every shell that enters the
// directory) gives git configuration through the environment: `GIT_CONFIG_COUNT/GIT_CONFIG_KEY_0=core.hooksPath/
// GIT_CONFIG_VALUE_0=githooks`, or `GIT_CONFIG_GLOBAL=tools/gitconfig` naming a file that sets it. control-locations.ts
// computes hooksPath from the repository's config files only, and tool-file-references.ts reads the value `githooks`
// as a word (a directory a words file names is not protected; without a "/" it is no path value either), and the named
// gitconfig as words, so githooks/pre-commit stays writable and `git commit` in a direnv shell runs it.
// Fix direction: read GIT_CONFIG_KEY_n/GIT_CONFIG_VALUE_n pairs, GIT_CONFIG_PARAMETERS and the files GIT_CONFIG_GLOBAL /
// GIT_CONFIG_SYSTEM name as git configuration (control-locations.ts rules: hooksPath, includes, program paths).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from './harness.js';

const cases: { name: string; files: Record<string, string> }[] = [
  { name: 'GIT_CONFIG_KEY_0/VALUE_0', files: { '.envrc': 'export GIT_CONFIG_COUNT=1\nexport GIT_CONFIG_KEY_0=core.hooksPath\nexport GIT_CONFIG_VALUE_0=githooks\n' } },
  { name: 'GIT_CONFIG_GLOBAL', files: { '.envrc': 'export GIT_CONFIG_GLOBAL=tools/gitconfig\n', 'tools/gitconfig': '[core]\n\thooksPath = githooks\n' } },
];

for (const { name, files } of cases) {
  test(`a hook that an .envrc's ${name} makes git run is not writable`, async (t) => {
    const ws = project(t, { ...files, 'githooks/pre-commit': '#!/bin/sh\necho hook\n', 'a.txt': 'a\n' });
    execFileSync('chmod', ['+x', path.join(ws, 'githooks/pre-commit')]);
    const pwned = path.join(path.dirname(ws), 'PWNED');
    const output = await agentWrites(t, ws, 'githooks/pre-commit', `#!/bin/sh\ntouch ${JSON.stringify(pwned)}\n`);
    t.regex(output, /denied/u, output);
    // The user trusted this .envrc before the run; later they commit in a direnv shell.
    const data = path.join(path.dirname(ws), 'xdg');
    mkdirSync(data);
    const env = { ...process.env, XDG_DATA_HOME: data, XDG_CONFIG_HOME: data, GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@example.com', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@example.com' };
    execFileSync('direnv', ['allow', '.'], { cwd: ws, env, stdio: 'ignore' });
    execFileSync('direnv', ['exec', '.', 'git', 'commit', '-q', '--allow-empty', '-m', 'next'], { cwd: ws, env, stdio: 'ignore' });
    t.false(existsSync(pwned), 'git, in the direnv shell, ran githooks/pre-commit written by the agent');
  });
}
