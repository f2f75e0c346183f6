// Review s53b, raw error out of the aftercare, and unsafe names kept (set-aside.ts, agent-name-checks.ts).
// setAside looks at `dirname(entry)/zotbox-renamed-N` with lstatSync, which throws ENAMETOOLONG (not "no entry") when
// that name is past PATH_MAX although the entry itself is not: an unsafe name in a directory whose path is 4085 bytes
// long. setAsideNewUnsafeNames does not catch it (the git aftercare's own call does), and it works longest path
// first: the raw error leaves every other new unsafe name in place (`src/$(touch PWNED)`, `src/-rf`), and the
// call fails with "unexpected failure" instead of ZB_CONFINEMENT_NAME_UNSAFE.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const UNSAFE = /(^|\/)(-|[^/]*\$\()/u;
// A directory whose path is 4085 bytes long, holding `-x` (4088 bytes): `dir/zotbox-renamed-1` is past PATH_MAX.
const DEEP = [
  'mkdir deep && cd deep',
  `s=${'a'.repeat(200)}`,
  'while [ $(( ${#PWD} + 201 )) -lt 4040 ]; do mkdir $s && cd $s; done',
  'n=$(( 4085 - ${#PWD} - 1 ))',
  'b=$(printf "%${n}s" "" | tr " " b)',
  'mkdir $b && cd $b && : > ./-x',
  '',
].join('\n');

test('an unsafe name too deep to set aside never leaves the other unsafe names in place', async (t) => {
  const ws = project(t, { 'src/app.js': '1;\n', 'one.sh': `: > 'src/$(touch PWNED)' && : > src/-rf\n${DEEP}` });
  // Node's recursive rm cannot remove a tree past PATH_MAX; rm(1) walks it relative to each directory (LIFO: before the temp dir's own teardown).
  t.teardown(() => execFileSync('rm', ['-rf', path.join(ws, 'deep')]));
  const out = await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh');
  t.log('run:', out.slice(-600));
  git(ws, 'add', 'src');
  const staged = git(ws, 'ls-files', 'src').split('\n');
  t.log('staged:', staged);
  // SAFE: the new unsafe names in src/ were set aside (the deep one may be reported), and the error is a typed one.
  t.deepEqual(
    staged.filter((name) => UNSAFE.test(name)),
    [],
  );
  t.false(/ENAMETOOLONG/u.test(out) && !/ZB_/u.test(out), 'a raw ENAMETOOLONG out of the aftercare');
  // The deep one has no usable name beside it (each is past PATH_MAX): removed, as when no name is free.
  t.is(execFileSync('find', [path.join(ws, 'deep'), '-name', '-x'], { encoding: 'utf8' }), '');
  // The typed name error (ZB_CONFINEMENT_NAME_UNSAFE, as the tool result shows it), not "unexpected failure".
  t.regex(out, /failed: the command left names the user's tools would read as an option or as shell code/u);
});
