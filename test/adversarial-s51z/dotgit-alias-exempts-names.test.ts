// Review s51z, name rule fail-open (agent-file-names.ts `isInsideToolData`, git-inventory.ts `findGitMetadata`).
// The name scan leaves out every name below a component isGitDirectoryName matches: `.git` and its aliases on other
// file systems (`.git` with HFS-ignorable code points such as U+200C, trailing dots or spaces, `git~1`). On Linux git
// treats `.git\u200c` as an ordinary directory (core.protectHFS is off by default there): `git add -A` stages what is
// in it. The git aftercare holds the directory to git's data (it is "named like .git"), and data-shaped paths pass
// (`logs/refs/**`, `hooks/*.sample`), so one command keeps `$(touch pwned)` and `-rf` names, exit 0, no stop, and
// they are `before`'s from then on; the user's `git add -A` hands them to the hooks and scripts that take file names.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const ALIAS = '.git\u200c';

test('unsafe names a command makes below a .git alias that git on Linux stages are set aside', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  const script = `mkdir -p '${ALIAS}/logs/refs' '${ALIAS}/hooks' && echo x > '${ALIAS}/logs/refs/$(touch pwned)' && echo x > '${ALIAS}/hooks/-rf.sample'\n`;
  const transcript = await agentWrites(t, ws, 'mk.sh', script, 'sh mk.sh');
  t.log(transcript.slice(-600));
  git(ws, 'add', '-A');
  const staged = git(ws, '-c', 'core.quotePath=false', 'ls-files');
  t.log(staged);
  // SAFE: the names are gone from where the command left them (set aside or removed, the run stopped), so git does not stage them.
  t.false(existsSync(path.join(ws, ALIAS, 'logs', 'refs', '$(touch pwned)')));
  t.false(existsSync(path.join(ws, ALIAS, 'hooks', '-rf.sample')));
  t.notRegex(staged, /\$\(touch pwned\)|-rf\.sample/u);
});

test('control: the same names below an ordinary directory are set aside', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  const script = "mkdir -p d/logs/refs && echo x > 'd/logs/refs/$(touch pwned)'\n";
  const transcript = await agentWrites(t, ws, 'mk.sh', script, 'sh mk.sh');
  t.false(existsSync(path.join(ws, 'd', 'logs', 'refs', '$(touch pwned)')));
  t.regex(transcript, /ZB_CONFINEMENT_NAME_UNSAFE|read as an option or as shell code/u);
});
