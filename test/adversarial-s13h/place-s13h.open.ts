// Review s13h: where the hook's shell is, and what a redirection leaves, after s11g's fixes (shell-lexer.ts lexShell's
// one-word redirection targets, shell-command-positions.ts, placeChangesOf with `here` and ARGUMENTS_ONLY). Each test
// asserts the SAFE outcome by hand, so it FAILS while the hole is open: these are the cases still open (the fixed ones
// are in place-s13h.test.ts). The end-to-end tests use the setup of reviews
// s07d, s09f and s11g: the user's bash hook (core.hooksPath .githooks) runs, at run time, a file zotbox does not
// protect; one CONFINED call (real bubblewrap, the agent's `sh one.sh`) appends `touch PWNED` to it; then the user's
// `git commit`. The unit tests state the readings by hand (toolFileReferences refuses or protects the file bash runs;
// placeChangesOf). The over-denial tests assert the reading an ordinary hook should get, so they FAIL while refused.
import test from 'ava';
import { heldFor } from '../adversarial-s09f/harness.js';

// Row 1, still open: a function a sourced file defines, called after the hook's cd: the sourced file is read from
// where the hook is when it sources it, not from where each call runs.
test('1: unit: a sourced helper function called after the hook cds', (t) => {
  t.true(heldFor(t, '. ./fns.sh\ncd scripts || exit 1\ncheck', { 'fns.sh': 'check() { bash lib.sh; }\n' }));
});

// Row 5: `here` is judged from the sourced file's text only: PWD set by the sourcer makes the file's `cd "$PWD"` a move.
test('5: unit: the hook sets PWD, a sourced file does cd "$PWD"', (t) => {
  for (const body of ['PWD=$PWD/scripts\n. ./cdx.sh\nbash lib.sh', 'export PWD="$PWD/scripts"\n. ./cdx.sh\nbash lib.sh']) t.true(heldFor(t, body, { 'cdx.sh': 'cd "$PWD" || exit\n' }), body);
});

// Row 6: a group or subshell piped into a shell: only its last command's output is read as the script.
test('6: unit: { echo cd …; echo bash lib.sh; } | bash, ( … ) | sh', (t) => {
  for (const body of ['{ echo cd scripts; echo bash lib.sh; } | bash', "(echo 'cd scripts'; echo 'bash lib.sh') | sh"]) t.true(heldFor(t, body), body);
});
