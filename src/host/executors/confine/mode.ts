// Which confinement a run's commands get (issue 9 §1, gate-rules §7). Commands
// run inside bubblewrap, or they do not run: there is no silent fallback. The
// only way to run unconfined is the explicit opt-out `off`, which consent shows
// as UNCONFINED and the receipt binds. node:child_process loads only to probe
// bubblewrap, so parsing a mode (zotbox check) does not pay for it (issue 11).
import { findProgram } from '../../../policy/program-lookup.js';
import { COMMAND_SEARCH_PATH } from '../command-environment.js';
import { ZotboxError } from '../../../errors.js';
import { DROPPED_PRIVILEGES } from './dropped-privileges.js';
import { diagnoseSandbox, readSystemFacts, type SandboxCause, type SandboxFacts } from './sandbox-diagnosis.js';

/** `required` (the default): confined or refused. `off`: the user's explicit opt-out. */
export type ConfineMode = 'required' | 'off';

export type Confinement =
  | { readonly kind: 'bubblewrap'; readonly bwrap: string }
  /** Required, but bubblewrap cannot start here: every command is refused with ZB_CONFINEMENT_UNAVAILABLE, naming the cause and its fix. */
  | { readonly kind: 'unavailable'; readonly reason: string; readonly cause?: SandboxCause; readonly fix?: string }
  | { readonly kind: 'unconfined' };

/** What consent shows and the receipt binds: a receipt for a confined run never covers an unconfined one. */
export type ConfinementSummary = 'bubblewrap' | 'unconfined';

/** The sandbox flags the probe must be able to use: the same privileges-dropping set every command gets. */
const PROBE_ARGUMENTS = [...DROPPED_PRIVILEGES, '--unshare-pid', '--unshare-net', '--die-with-parent', '--ro-bind', '/', '/', '--proc', '/proc', '--', '/bin/true'];

/** Where bubblewrap works, its path; where it does not, why (sandbox-diagnosis.ts) and the fix for that cause. */
export type BubblewrapDetection = { readonly bwrap: string } | { readonly reason: string; readonly cause?: SandboxCause; readonly fix?: string };

let detected: BubblewrapDetection | undefined;

/** Runs the probe sandbox: bubblewrap's exit status and the first line it printed. */
export function probeBubblewrap(bwrap: string): { status: number | null; message: string } {
  const { spawnSync } = process.getBuiltinModule('node:child_process');
  const probe = spawnSync(bwrap, PROBE_ARGUMENTS, { timeout: 10_000, stdio: ['ignore', 'ignore', 'pipe'], env: {} });
  // Null, despite Node's types, when bwrap could not be spawned at all (EACCES, ENOENT): spawnSync then has no output.
  const stderr = probe.stderr as Buffer | null;
  return { status: probe.status, message: stderr?.toString('utf8').trim().split('\n')[0] ?? '' };
}

/** The facts the diagnosis decides from, read now: bwrap on the search path, the probe, the system's settings. */
export function sandboxFacts(searchPath: readonly string[] = COMMAND_SEARCH_PATH, env: Readonly<Record<string, string | undefined>> = process.env): SandboxFacts {
  const bwrap = findProgram('bwrap', searchPath)?.foundAt;
  return { bwrap, probe: bwrap === undefined ? undefined : probeBubblewrap(bwrap), ...readSystemFacts(env) };
}

/** Finds bwrap on the fixed search path and checks it can build an unprivileged sandbox; when it cannot, says why. Cached per process. */
export function detectBubblewrap(searchPath: readonly string[] = COMMAND_SEARCH_PATH): BubblewrapDetection {
  if (detected !== undefined && searchPath === COMMAND_SEARCH_PATH) return detected;
  const diagnosis = diagnoseSandbox(sandboxFacts(searchPath));
  const result: BubblewrapDetection = diagnosis.ok ? { bwrap: diagnosis.bwrap } : { reason: diagnosis.summary, cause: diagnosis.cause, fix: diagnosis.fix };
  if (searchPath === COMMAND_SEARCH_PATH) detected = result;
  return result;
}

/** Parses the user's word for the mode. `auto` and `require` are older spellings of `required`: neither ever ran unconfined silently again. */
export function parseConfineMode(word: string): ConfineMode | undefined {
  if (word === 'required' || word === 'require' || word === 'auto' || word === 'on') return 'required';
  if (word === 'off') return 'off';
  return undefined;
}

export function resolveConfinement(mode: ConfineMode, detect: () => BubblewrapDetection = detectBubblewrap): Confinement {
  if (mode === 'off') return { kind: 'unconfined' };
  const found = detect();
  return 'bwrap' in found ? { kind: 'bubblewrap', bwrap: found.bwrap } : { kind: 'unavailable', ...found };
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
      return `required, but unavailable (${confinement.reason}): commands will be refused. ${fixText(confinement.fix)}`;
    case 'unconfined':
      return 'UNCONFINED: commands run with your full user rights (--confine off)';
  }
}

const MACOS_NOTE = 'macOS Seatbelt confinement is future work: on macOS commands can only run with --confine off.';

const INSTALL_HINT = `Install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap) and make sure unprivileged user namespaces are enabled, or opt out with --confine off. ${MACOS_NOTE}`;

/** The fix for a diagnosed cause, then the general hint (macOS, the opt-out). */
function fixText(fix: string | undefined): string {
  return fix === undefined ? INSTALL_HINT : `Fix: ${fix}. \`zotbox doctor\` checks it again. ${MACOS_NOTE}`;
}

/** The error every command gets when confinement is required and bubblewrap cannot start: the cause (details.cause) and its fix. */
export function confinementUnavailable(confinement: { readonly reason: string; readonly cause?: SandboxCause; readonly fix?: string }): ZotboxError {
  return new ZotboxError('ZB_CONFINEMENT_UNAVAILABLE', `command refused: it must run confined, and ${confinement.reason}. ${fixText(confinement.fix)}`, {
    details: { reason: confinement.reason, cause: confinement.cause ?? 'other' },
  });
}
