// Finding (tools and config files the reader does not know): lefthook runs the `scripts:` of a hook from
// `<source_dir>/<hook>/`, and `source_dir:` in lefthook.yml moves that directory away from the protected default
// `.lefthook/`. The reader took lefthook.yml word by word: `check.sh` was read relative to the repository's top
// (nothing there), and the directory `tools/hooks/` a setting names was "not protected". So the agent's write tool
// replaced tools/hooks/pre-commit/check.sh and the user's next `git commit` ran it through lefthook, unconfined.
// Safe outcome, stated by hand without lefthook (not installed here): the write is refused and the file keeps the
// user's text, for source_dir and source_dir_local, in YAML and in TOML.
import test from 'ava';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { agentRun, world } from './harness.js';

const cases: Record<string, Record<string, string>> = {
  'lefthook.yml source_dir': { 'lefthook.yml': 'source_dir: tools/hooks/\npre-commit:\n  scripts:\n    "check.sh":\n      runner: sh\n' },
  'lefthook-local.yml source_dir_local': { 'lefthook-local.yml': 'source_dir_local: "tools/hooks"\n' },
  'lefthook.toml source_dir': { 'lefthook.toml': 'source_dir = "tools/hooks/"\n' },
};

for (const [name, config] of Object.entries(cases)) {
  test(`lefthook's source_dir scripts are protected as .lefthook/'s are (${name})`, async (t) => {
    const w = world(t, { ...config, 'tools/hooks/pre-commit/check.sh': 'echo checking\n' });
    const result = await agentRun(w, [{ name: 'write', input: { path: 'tools/hooks/pre-commit/check.sh', content: `touch '${w.marker}'\n` } }]);
    t.is(readFileSync(path.join(w.ws, 'tools/hooks/pre-commit/check.sh'), 'utf8'), 'echo checking\n', `${result.stdout}${result.stderr}`);
    t.regex(`${result.stdout}${result.stderr}`, /tools\/hooks/u);
  });
}
