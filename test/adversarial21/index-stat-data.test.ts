// Found by the fresh adversarial review of issue 21, second round (failed on d860bcf;
// fixed by git-index-rewrite.ts: new or changed stat data is smudged whenever a call wrote the index).
// zotbox's answer for files it does not protect (a Makefile, package.json scripts,
// conftest.py) is the user's review: "review an agent's changes before running the
// project's tools on them" (docs/security.md), which is `git status` and `git diff`.
// It checks the index flags that hide changes (skip-worktree, assume-unchanged:
// git-index-flags.ts) but not the stat data of each entry, which git trusts the same
// way: when an entry's size, times, inode and owner match the file, git takes the file
// for unchanged and never reads it. A command rewrites the Makefile, sets its mtime
// back, and writes the new ctime and size into the entry (the blob id stays the
// user's): `git status` and `git diff` show nothing, and the user's `make test` runs
// the agent's recipe.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { existsSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { makeWorld, runAttack } from './world.js';

/** Run by the agent's allowlisted python3: rewrites FILE and makes its index entry's stat data match; removes itself. */
const HIDE = `import hashlib, os, sys
name, content = sys.argv[1], sys.argv[2].replace('\\\\n', '\\n').replace('\\\\t', '\\t').encode()
body = bytearray(open('.git/index', 'rb').read()[:-20])
pos, entry = 12, None
for _ in range(int.from_bytes(body[8:12], 'big')):
    n = int.from_bytes(body[pos + 60:pos + 62], 'big') & 0xFFF
    if bytes(body[pos + 62:pos + 62 + n]) == name.encode(): entry = pos
    pos += (62 + n + 8) // 8 * 8
sec, nsec = int.from_bytes(body[entry + 8:entry + 12], 'big'), int.from_bytes(body[entry + 12:entry + 16], 'big')
with open(name, 'r+b') as f:
    f.write(content); f.truncate()
os.utime(name, ns=(sec * 10**9 + nsec, sec * 10**9 + nsec))
st = os.stat(name)
body[entry:entry + 4] = (st.st_ctime_ns // 10**9).to_bytes(4, 'big')
body[entry + 4:entry + 8] = (st.st_ctime_ns % 10**9).to_bytes(4, 'big')
body[entry + 36:entry + 40] = st.st_size.to_bytes(4, 'big')
open('.git/index', 'wb').write(bytes(body) + hashlib.sha1(bytes(body)).digest())
os.remove(sys.argv[0])
print('hidden', name)
`;

test("an index entry's stat data, set to match the agent's Makefile, hides the change from git status and diff", async (t) => {
  const world = makeWorld(t);
  const makefile = path.join(world.workspace, 'Makefile');
  writeFileSync(makefile, 'test:\n\techo running tests\n');
  // An ordinary file last changed an hour ago (so no timestamp is "racily clean").
  const hourAgo = new Date(Date.now() - 3_600_000);
  utimesSync(makefile, hourAgo, hourAgo);
  world.git('add', '-A');
  world.git('commit', '-qm', 'init');

  const result = await runAttack(world, { mode: 'allowlist', allow: ['python3'] }, [
    { tool: 'write', input: { path: 'hide.py', content: HIDE } },
    { tool: 'bash', input: { command: `python3 hide.py Makefile 'test:\\n\\ttouch ${world.mark}'` } },
  ]);
  t.log(
    result.stdout
      .split('\n')
      .filter((line) => line.includes('tool.result') || line.includes('run.end'))
      .join('\n'),
  );

  // The user's review, then the project's own tool.
  const status = world.git('status', '--porcelain');
  const diff = world.git('diff');
  t.log({ status, diff });
  execFileSync('make', ['test'], { cwd: world.workspace, stdio: 'ignore' });
  t.log(existsSync(world.mark) ? "make ran the agent's recipe" : 'make ran the user recipe');

  // Expected: the user's review shows the change (zotbox zeroes the stat data the call wrote into the
  // entry, so the user's git compares the file's content).
  t.regex(status, /^ M Makefile$/mu, 'git status shows the agent-changed Makefile as unchanged');
  t.regex(diff, /touch /u, 'git diff hides the agent-changed Makefile');
});
