// Program text given on the command line (sed scripts, awk programs, jq
// filters): parsed by program-text/*.ts, and allowed only when every construct
// in it is understood and harmless (issue 10 item 1). Anything else is denied
// with the construct named. Text in files (sed -f, awk -f, jq -f) is never read:
// it could change between the check and the run, so those options are not allowed.
import { deny as no, type Check } from '../shell-check.js';
import { findAwkDenial } from './program-text/awk.js';
import { findJqDenial } from './program-text/jq.js';
import { findSedDenial } from './program-text/sed.js';

function decide(program: string, what: string, text: string, denial: string | undefined, fix: string): Check<null> {
  if (denial === undefined) return { ok: true, value: null };
  return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: the ${what} ${JSON.stringify(text)} is denied: ${denial}. ${fix}`);
}

export function checkSedScript(program: string, script: string): Check<null> {
  return decide(
    program,
    'script',
    script,
    findSedDenial(script),
    'Allowed: addresses (N, $, /re/, \\cREc, first~step, addr,+N, !), commands p d D s y q Q = n N l P h H g G x z b t T : { } a i c and #comments; s flags g p i I m M and a number.',
  );
}

export function checkAwkProgram(program: string, text: string): Check<null> {
  return decide(program, 'program', text, findAwkDenial(text), 'awk programs may compute and print to standard output; they may not run commands, open files or read the environment.');
}

export function checkJqFilter(program: string, text: string): Check<null> {
  return decide(program, 'filter', text, findJqDenial(text), 'jq filters may not load modules or files (import, include, modulemeta).');
}
