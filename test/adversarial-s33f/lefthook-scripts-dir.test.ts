// lefthook's `scripts:` run files from its source_dir (default `.lefthook/<hook>/`, and `.lefthook-local/<hook>/`),
// named only by their base name in lefthook.yml: the reader takes "check.sh" relative to the folder, and neither
// directory is a protected entry, so the agent can write the script lefthook runs on the next commit.
import test from 'ava';
import { workspaceRefusal } from './hook-harness.js';

const config = 'pre-commit:\n  scripts:\n    "check.sh":\n      runner: sh\n';

for (const target of ['.lefthook/pre-commit/check.sh', '.lefthook-local/pre-commit/check.sh']) {
  test(`lefthook.yml with a pre-commit script: the agent may not write ${target}`, (t) => {
    t.regex(workspaceRefusal(t, { 'lefthook.yml': config }, target).refusal ?? 'allowed', /write denied/u);
  });
}
