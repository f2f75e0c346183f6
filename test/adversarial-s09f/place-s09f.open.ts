// Review s09f: where the hook's shell is after what zotbox's reading does not follow, after d3e73494 (sourced files
// read for a cd, pushd, popd or PWD; their moving functions; $PWD/$(pwd)/rev-parse unknown where made the script's own).
// These are the cases still open after the fix (place-s09f.test.ts holds the rest); each asserts the SAFE outcome by hand,
// so it FAILS while the hole is open. The end-to-end tests use the setup of
// review s07d: the user's bash hook (core.hooksPath .githooks) ends up in scripts/ at run time and runs `bash lib.sh`;
// zotbox, reading no move, protects the top's lib.sh; one CONFINED call (real bubblewrap, the agent's `sh one.sh`)
// appends `touch PWNED` to scripts/lib.sh; then the user's `git commit`. The unit tests state the readings by hand
// (placeChangesOf, scriptWords, toolFileReferences); the last ones are over-denials (ordinary hooks now refused).
import test from 'ava';
import { COUNT, unresolvedOf } from './harness.js';

test('over-denial: a sourced helper whose function pushd/popd back around a command, called: reads', (t) => {
  const helpers = 'in_web() {\n  pushd web >/dev/null || return\n  "$@"\n  popd >/dev/null\n}\n';
  t.deepEqual(
    unresolvedOf(t, { '.githooks/pre-commit': '#!/bin/bash\n. ./scripts/helpers.sh\nin_web npm run lint\nsh scripts/count.sh\n', 'scripts/helpers.sh': helpers, 'scripts/count.sh': COUNT }),
    [],
  );
});
