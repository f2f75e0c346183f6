// Review s47v of issue 21, over-denial: agent-file-names.ts refuses `$` anywhere in a new name, but `$` is how React
// Router v7 / Remix v2 flat routes (`app/routes/concerts.$city.tsx`, the splat `$.tsx`, `($lang).about.tsx`) and
// TanStack Router (`src/routes/posts/$postId.tsx`) name a route parameter: an agent cannot add a page to such an app.
// Only some `$` forms are shell code: `$(`, `${`, `` ` ``, and a `$NAME` whose value holds an option (`$IFS` splits,
// `$LESS` is `-R`), or bash's specials (`$-`, `$@`, `$*`, `$_`, `$0`…). A literal `$` before `.`, `)` or the end, or a
// lowercase parameter name (`$city`, `$postId`: unset, expands to nothing) inside a component, hands no program an
// option or code. The hook is s46u's (staged names put into shell text); the routes must be accepted and the commit run.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

const HOOK =
  '#!/usr/bin/env node\nconst { execFileSync, execSync } = require("node:child_process");\nconst files = execFileSync("git", ["diff", "--cached", "--name-only"], { encoding: "utf8" }).split("\\n").filter(Boolean);\nexecSync(`git add ${files.map((f) => `\'${f}\'`).join(" ")}`, { stdio: "inherit" });\n';

const ROUTES = ['app/routes/concerts.$city.tsx', 'app/routes/$.tsx', 'app/routes/($lang).about.tsx', 'src/routes/posts/$postId.tsx'];

for (const route of ROUTES) {
  test(`a router's parameter route ${route} is accepted from the write tool`, async (t) => {
    const ws = project(t, { '.git/hooks/pre-commit': HOOK, 'app/root.tsx': 'export default 1;\n' });
    t.log(await agentWrites(t, ws, route, 'export default function Page() { return null; }\n'));
    t.true(existsSync(path.join(ws, route)), `${route} (ordinary work in a React Router / TanStack Router app) was refused`);
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'user commit');
    t.is(git(ws, 'show', '--name-only', '--format=', 'HEAD').trim(), route);
  });
}

test('control (passes today): a $( in a route name is refused', async (t) => {
  const ws = project(t, { '.git/hooks/pre-commit': HOOK, 'app/root.tsx': 'export default 1;\n' });
  t.regex(await agentWrites(t, ws, 'app/routes/$(sh p.sh).tsx', '1;\n'), /failed: write denied/u);
  t.false(existsSync(path.join(ws, 'app/routes/$(sh p.sh).tsx')));
});

test('control (passes today): a bracket route (Next.js) is accepted', async (t) => {
  const ws = project(t, { '.git/hooks/pre-commit': HOOK, 'app/root.tsx': 'export default 1;\n' });
  t.log(await agentWrites(t, ws, 'app/posts/[id]/page.tsx', 'export default 1;\n'));
  t.true(existsSync(path.join(ws, 'app/posts/[id]/page.tsx')));
});
