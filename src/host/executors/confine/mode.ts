// Which confinement a run's commands get (issue 9 §1, gate-rules §7). Commands
// run inside bubblewrap, or they do not run: there is no silent fallback. The
// only way to run unconfined is the explicit opt-out `off`, which consent shows
// as UNCONFINED and the receipt binds. node:child_process loads only to probe
// bubblewrap, so parsing a mode (zotbox check) does not pay for it (issue 11).
import { findProgram } from '../../../policy/program-lookup.js';
import { COMMAND_SEARCH_PATH } from '../command-environment.js';
import { ZotboxError } from '../../../errors.js';

/** `required` (the default): confined or refused. `off`: the user's explicit opt-out. */
export type ConfineMode = 'required' | 'off';

export type Confinement =
  | { readonly kind: 'bubblewrap'; readonly bwrap: string }
  /** Required, but bubblewrap cannot start here: every command is refused with ZB_CONFINEMENT_UNAVAILABLE. */
  | { readonly kind: 'unavailable'; readonly reason: string }
  | { readonly kind: 'unconfined' };

/** What consent shows and the receipt binds: a receipt for a confined run never covers an unconfined one. */
export type ConfinementSummary = 'bubblewrap' | 'unconfined';

/** The sandbox flags the probe must be able to use: the same privileges-dropping set every command gets. */
const PROBE_ARGUMENTS = [
  '--unshare-user',
  '--uid',
  '65534',
  '--gid',
  '65534',
  '--cap-drop',
  'ALL',
  '--disable-userns',
  '--unshare-pid',
  '--unshare-net',
  '--die-with-parent',
  '--ro-bind',
  '/',
  '/',
  '--proc',
  '/proc',
  '--',
  '/bin/true',
];

let detected: { bwrap: string } | { reason: string } | undefined;

/** Finds bwrap on the fixed search path and checks it can build an unprivileged sandbox. Cached per process. */
export function detectBubblewrap(searchPath: readonly string[] = COMMAND_SEARCH_PATH): { bwrap: string } | { reason: string } {
  if (detected !== undefined && searchPath === COMMAND_SEARCH_PATH) return detected;
  const found = findProgram('bwrap', searchPath);
  let result: { bwrap: string } | { reason: string };
  if (found === undefined) {
    result = { reason: 'bubblewrap (bwrap) is not installed' };
  } else {
    const { spawnSync } = process.getBuiltinModule('node:child_process');
    const probe = spawnSync(found.foundAt, PROBE_ARGUMENTS, { timeout: 10_000, stdio: ['ignore', 'ignore', 'pipe'], env: {} });
    // Null, despite Node's types, when bwrap could not be spawned at all (EACCES, ENOENT): spawnSync then has no output.
    const stderr = probe.stderr as Buffer | null;
    const why = stderr?.toString('utf8').trim().split('\n')[0] ?? '';
    result = probe.status === 0 ? { bwrap: found.foundAt } : { reason: `bubblewrap is installed but cannot create an unprivileged sandbox here${why === '' ? '' : ` (${why})`}` };
  }
  if (searchPath === COMMAND_SEARCH_PATH) detected = result;
  return result;
}

/** Parses the user's word for the mode. `auto` and `require` are older spellings of `required`: neither ever ran unconfined silently again. */
export function parseConfineMode(word: string): ConfineMode | undefined {
  if (word === 'required' || word === 'require' || word === 'auto' || word === 'on') return 'required';
  if (word === 'off') return 'off';
  return undefined;
}

export function resolveConfinement(mode: ConfineMode, detect: () => { bwrap: string } | { reason: string } = detectBubblewrap): Confinement {
  if (mode === 'off') return { kind: 'unconfined' };
  const found = detect();
  return 'bwrap' in found ? { kind: 'bubblewrap', bwrap: found.bwrap } : { kind: 'unavailable', reason: found.reason };
}

export function summarizeConfinement(confinement: Confinement): ConfinementSummary {
  return confinement.kind === 'unconfined' ? 'unconfined' : 'bubblewrap';
}

/** How inspect, run.start and errors describe the confinement in force. */
export function describeConfinement(confinement: Confinement): string {
  switch (confinement.kind) {
    case 'bubblewrap':
      return 'bubblewrap: commands run without privileges and see only the system directories and the scopes, with no network';
    case 'unavailable':
      return `required, but unavailable (${confinement.reason}): commands will be refused. ${INSTALL_HINT}`;
    case 'unconfined':
      return 'UNCONFINED: commands run with your full user rights (--confine off)';
  }
}

const INSTALL_HINT =
  'Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) and make sure unprivileged user namespaces are enabled, or opt out with --confine off. macOS Seatbelt confinement is future work: on macOS commands can only run with --confine off.';

/** The error every command gets when confinement is required and bubblewrap cannot start. */
export function confinementUnavailable(reason: string): ZotboxError {
  return new ZotboxError('ZB_CONFINEMENT_UNAVAILABLE', `command refused: it must run confined, and ${reason}. ${INSTALL_HINT}`, { details: { reason } });
}
