// Review s49x, over-denial (same cause as root-head-unprotects: git-inventory.ts `isShapedLikeGitDirectory` takes any
// directory holding an entry named `head`, any case, for a git directory). A component folder `src/components/Head/`
// (React, Vue, a site's partials) makes `src/components` "a git directory": the write tool refuses every file in it,
// new or existing ("inside the git directory ... agents change a repository only with git commands").
// Fixed: only a directory git opens is a git directory (git-inventory.ts).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

test('a folder named Head does not make its parent a git directory for the write tool', async (t) => {
  const ws = project(t, { 'src/components/Head/index.jsx': 'export {};\n', 'src/components/App.jsx': 'export {};\n' });
  t.log((await agentWrites(t, ws, 'src/components/App.jsx', 'export const app = 1;\n')).slice(-400));
  // SAFE: the ordinary source edit is written.
  t.is(readFileSync(path.join(ws, 'src/components/App.jsx'), 'utf8'), 'export const app = 1;\n');
});

test('a folder named Head does not make its parent a git directory for bash either', async (t) => {
  const ws = project(t, { 'src/components/Head/index.jsx': 'export {};\n', 'src/components/App.jsx': 'export {};\n' });
  const transcript = await agentWrites(t, ws, 'w.sh', 'echo "export const app = 2;" > src/components/App.jsx\n', 'sh w.sh');
  t.notRegex(transcript, /ZB_/);
  t.is(readFileSync(path.join(ws, 'src/components/App.jsx'), 'utf8'), 'export const app = 2;\n');
});
