// Review s49x, set-aside data loss (agent-name-checks.ts `setAside`). The entry a command leaves with an unsafe name
// is moved to the first free `zotbox-renamed-1..100` beside it, and REMOVED (rmSync recursive) when none is free. The
// entry may be the user's own directory renamed (s47v: `mv notes "Tom's notes"`). The command makes the hundred names
// first (any slip or any agent can; nothing limits them), so zotbox itself deletes the user's uncommitted files. The
// fallback when no name is free should never delete: e.g. a name with a unique part (inode, random), or leave it
// and stop the run.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

test("a user's directory renamed to an unsafe name is never deleted, even when the hundred aside names are taken", async (t) => {
  const ws = project(t, { 'notes/plan.md': 'old plan\n', 'src/app.js': '1;\n' });
  writeFileSync(path.join(ws, 'notes/plan.md'), 'the user plan\n'); // not committed: git cannot give it back
  const script = 'i=1; while [ $i -le 100 ]; do mkdir zotbox-renamed-$i; i=$((i+1)); done\nmv notes "Tom\'s notes"\n';
  const transcript = await agentWrites(t, ws, 'mv.sh', script, 'sh mv.sh');
  t.log(transcript.slice(-600));
  const kept = readdirSync(ws).flatMap((name) => {
    const plan = path.join(ws, name, 'plan.md');
    return existsSync(plan) ? [readFileSync(plan, 'utf8')] : [];
  });
  // SAFE: the user's plan is still somewhere in the workspace.
  t.deepEqual(kept, ['the user plan\n']);
});
