// Review s50y, name rule fail-open (agent-name-checks.ts `setAsideNewUnsafeNames`). opensAsRepository
// (git-directory-state.ts) takes a HEAD that is exactly `ref: refs/...` (or an object id) for a repository even
// with no objects/ and refs/ beside it ("half-built"), which git does NOT open (is_git_directory needs both). Such a
// directory is a git directory to zotbox, so every unsafe name a command makes inside it is skipped ("git's data"),
// and the git aftercare accepts them where git data may lie (logs/refs/**, hooks/*.sample, description...: opaque or
// text). One command keeps `$(touch pwned)` and `-rf` names, no stop; they are `before`'s from then on. git does not
// see a repository there, so the user's `git add -A` stages them like any other file, for the hooks and scripts
// that are handed file names.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

test('unsafe names in a directory whose only git file is a HEAD holding a ref are set aside', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  const script = "mkdir -p d/logs/refs && printf 'ref: refs/heads/main\\n' > d/HEAD && echo x > 'd/logs/refs/$(touch pwned)' && mkdir d/hooks && echo x > 'd/hooks/-rf.sample'\n";
  const transcript = await agentWrites(t, ws, 'mk.sh', script, 'sh mk.sh');
  t.log(transcript.slice(-600));
  // git does not open d as a repository: it has no objects/ nor refs/.
  t.throws(() => git(ws, '--git-dir=d', 'rev-parse', '--git-dir'));
  git(ws, 'add', '-A');
  t.log(git(ws, 'ls-files'));
  // SAFE: the unsafe names are gone from where the command left them (moved aside, the run stopped).
  t.false(existsSync(path.join(ws, 'd', 'logs', 'refs', '$(touch pwned)')));
  t.false(existsSync(path.join(ws, 'd', 'hooks', '-rf.sample')));
  t.regex(transcript, /ZB_CONFINEMENT_NAME_UNSAFE|ZB_CONFINEMENT_GIT_PROGRAM|read as an option or as shell code/);
});

test('unsafe names a command makes inside a bare repository it made are set aside (git add -A stages them too)', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  const script = "git init -q --bare d && mkdir -p d/logs/refs && echo x > 'd/logs/refs/$(touch pwned)'\n";
  const transcript = await agentWrites(t, ws, 'mk.sh', script, 'sh mk.sh');
  t.log(transcript.slice(-600));
  git(ws, 'add', '-A');
  t.log(git(ws, 'ls-files', 'd/logs'));
  t.false(existsSync(path.join(ws, 'd', 'logs', 'refs', '$(touch pwned)')));
});

test('control: the same names without the HEAD are set aside', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  const script = "mkdir -p d/logs/refs && echo x > 'd/logs/refs/$(touch pwned)'\n";
  const transcript = await agentWrites(t, ws, 'mk.sh', script, 'sh mk.sh');
  t.false(existsSync(path.join(ws, 'd', 'logs', 'refs', '$(touch pwned)')));
  t.regex(transcript, /ZB_CONFINEMENT_NAME_UNSAFE|read as an option or as shell code/);
});
