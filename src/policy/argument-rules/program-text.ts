// Program text given on the command line (sed scripts, awk programs, jq
// filters): parsed, and allowed only when every construct in it is understood
// and harmless (issue 10 item 1). Anything else is denied with the construct named.
import { deny as no, type Check } from '../shell-check.js';

const SED_ADDRESS = String.raw`(?:[0-9]+|\$|/(?:[^/\\]|\\.)*/)`;
const SED_PRINT = new RegExp(`^(?:${SED_ADDRESS}(?:,${SED_ADDRESS})?)?p$`);

export function checkSedScript(program: string, script: string): Check<null> {
  if (SED_PRINT.test(script)) return { ok: true, value: null };
  return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: the script ${JSON.stringify(script)} is not understood; only "ADDRESSp" scripts are allowed.`);
}

export function checkAwkProgram(program: string, text: string): Check<null> {
  return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: the program ${JSON.stringify(text)} is not understood.`);
}

export function checkJqFilter(program: string, text: string): Check<null> {
  return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: the filter ${JSON.stringify(text)} is not understood.`);
}
