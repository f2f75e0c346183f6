// Review s49x, set-aside fail-open (agent-name-checks.ts `setAsideNewUnsafeNames`). Entries inside a git directory are
// the git aftercare's and skipped, and an entry that IS one is skipped too (`isInsideRoot(entry, directory)` holds for
// the directory itself). git-inventory.ts counts as a git directory every directory holding an entry named `head`
// (any case). So a command that puts an empty `HEAD` file in a directory with an unsafe name keeps that name, and every
// name made inside it, in the workspace; the run is not stopped and no later walk sets them aside (they are
// `before`'s). `git add -A` then hands `$(...)`/`;` paths to the user's hooks and scripts.
// Fixed: a directory holding a HEAD git does not open is ordinary (git-inventory.ts); a git directory's own name is
// judged like any other, and names in one the git aftercare defused are too (agent-name-checks.ts).
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

test('a directory with an unsafe name is set aside even when it holds a HEAD file', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  const script = 'd=";touch pwned;"; mkdir "$d" && : > "$d/HEAD" && echo x > "$d/\\$(touch pwned2)"\n';
  const transcript = await agentWrites(t, ws, 'mk.sh', script, 'sh mk.sh');
  t.log(transcript.slice(-500));
  // SAFE: the unsafe names are gone from where the command left them (moved aside, the run stopped).
  t.false(existsSync(path.join(ws, ';touch pwned;')));
  t.regex(transcript, /ZB_CONFINEMENT_NAME_UNSAFE|read as an option or as shell code/);
});

test('control: the same directory without a HEAD file is set aside', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  await agentWrites(t, ws, 'mk.sh', 'd=";touch pwned;"; mkdir "$d" && echo x > "$d/a"\n', 'sh mk.sh');
  t.false(existsSync(path.join(ws, ';touch pwned;')));
});

test('a repository the command makes under an unsafe name is set aside, and so are names in one it defused', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n' });
  // A bare repository git opens (git init --bare) under an unsafe name, and one made by hand whose stray file gets it defused.
  const script = 'git init -q --bare ";touch pwned;" && mkdir -p "b/objects" b/refs && printf "ref: refs/heads/main\\n" > b/HEAD && echo x > "b/\\$(touch pwned2)"\n';
  const transcript = await agentWrites(t, ws, 'mk.sh', script, 'sh mk.sh');
  t.log(transcript.slice(-700));
  t.false(existsSync(path.join(ws, ';touch pwned;')));
  t.false(existsSync(path.join(ws, 'b', '$(touch pwned2)')));
  t.false(existsSync(path.join(ws, 'b', 'HEAD')));
});
