// Review s47v of issue 21, data loss: agent-name-checks.ts removes every entry with an unsafe name that a command made,
// a directory renamed to one included ("the name cannot be put back"). So an ordinary `mv notes "Tom's notes"` (an
// apostrophe, as people name folders) by a confined command deletes the user's own files that were in `notes`: the
// agent could have `rm -rf`'d them, but this is the honest agent's slip turned into loss by zotbox itself. The entry
// is the same inode that was in the workspace before the call; a walk that records the inodes of what it removes could
// put it back under its old name (or move it aside, as a quarantine), and stop the run all the same.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

test("a user's directory renamed by a command to a name with an apostrophe keeps the user's files", async (t) => {
  const ws = project(t, { 'notes/plan.md': 'old plan\n', 'src/app.js': '1;\n' });
  writeFileSync(path.join(ws, 'notes/plan.md'), 'the user plan\n'); // not committed yet: git cannot give it back
  t.log(await agentWrites(t, ws, 'mv.sh', 'mv notes "Tom\'s notes"\n', 'sh mv.sh'));
  const kept = [path.join(ws, 'notes/plan.md'), path.join(ws, "Tom's notes/plan.md")].filter((file) => existsSync(file));
  t.is(kept.length, 1, "the user's notes/plan.md is gone");
  if (kept.length === 1) t.is(readFileSync(kept[0]!, 'utf8'), 'the user plan\n');
});

test('control (passes today): a plain rename keeps the files', async (t) => {
  const ws = project(t, { 'notes/plan.md': 'the user plan\n', 'src/app.js': '1;\n' });
  t.log(await agentWrites(t, ws, 'mv.sh', 'mv notes "Tom notes"\n', 'sh mv.sh'));
  t.is(readFileSync(path.join(ws, 'Tom notes/plan.md'), 'utf8'), 'the user plan\n');
});
