// Review s47v of issue 21, data loss (fixed: such an entry is now moved aside to a name of zotbox's own, beside it,
// with what it holds). Before: agent-name-checks.ts removed every entry with an unsafe name that a command made,
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
  const transcript = await agentWrites(t, ws, 'mv.sh', 'mv notes "Tom\'s notes"\n', 'sh mv.sh');
  // The unsafe name is gone, the run stopped, and the user's files are where the error says they were moved.
  t.false(existsSync(path.join(ws, "Tom's notes")));
  t.regex(transcript, /moved to \S*zotbox-renamed-1/);
  t.is(readFileSync(path.join(ws, 'zotbox-renamed-1/plan.md'), 'utf8'), 'the user plan\n');
});

test('control (passes today): a plain rename keeps the files', async (t) => {
  const ws = project(t, { 'notes/plan.md': 'the user plan\n', 'src/app.js': '1;\n' });
  t.log(await agentWrites(t, ws, 'mv.sh', 'mv notes "Tom notes"\n', 'sh mv.sh'));
  t.is(readFileSync(path.join(ws, 'Tom notes/plan.md'), 'utf8'), 'the user plan\n');
});
