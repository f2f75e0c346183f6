// Review s53b, data loss by zotbox (git-aftercare.ts `movedGitDirectories` `earlierPath`).
// What moved is found as the two paths less their common tail: `mv lib x/lib` moves `/ws/lib/.git` to
// `/ws/x/lib/.git`, and the trimmed prefix maps `/ws/x` → `/ws`. Every config below `/ws/x` is then compared with
// the text at the mapped path, including a repository that was in x/ all along and did not move: the user's
// `x/other/.git/config` is compared with `/ws/other/.git/config` (none), so it is "new", is checked against the
// closed list of keys for new repositories, fails on an ordinary key (`pull.rebase`), and zotbox deletes it
// (nothing earlier to write back). One ordinary command; x/other loses its remotes and settings.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

test('moving one repository into a directory never touches the config of another repository already there', async (t) => {
  const ws = project(t, { 'one.sh': 'mv lib x/lib\n', 'lib/app.js': '1;\n', 'x/other/app.js': '2;\n' });
  git(path.join(ws, 'lib'), 'init', '-q');
  git(path.join(ws, 'x/other'), 'init', '-q');
  const config = path.join(ws, 'x/other/.git/config');
  appendFileSync(config, '[remote "origin"]\n\turl = https://example.com/other.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[pull]\n\trebase = true\n');
  const text = readFileSync(config, 'utf8');
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-600));
  t.true(existsSync(path.join(ws, 'x/lib/.git')));
  // SAFE: the config of the repository that did not move is as it was.
  t.is(existsSync(config) ? readFileSync(config, 'utf8') : '(deleted)', text);
});

test("moving a repository into another repository's worktree never gives that one the workspace's config", async (t) => {
  // x/ is a repository of its own; `/ws/x/.git/config` maps to the workspace's `/ws/.git/config`, whose text is
  // then written over x's (x now pushes to the workspace's remote).
  const ws = project(t, { 'one.sh': 'mv lib x/lib\n', 'lib/app.js': '1;\n', 'x/app.js': '2;\n' });
  git(path.join(ws, 'lib'), 'init', '-q');
  git(path.join(ws, 'x'), 'init', '-q');
  const config = path.join(ws, 'x/.git/config');
  appendFileSync(config, '[remote "origin"]\n\turl = https://example.com/x.git\n[pull]\n\trebase = true\n');
  const text = readFileSync(config, 'utf8');
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-600));
  t.is(existsSync(config) ? readFileSync(config, 'utf8') : '(deleted)', text);
});
