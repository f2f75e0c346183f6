// `zotbox doctor` (issues 23 and 27): checks what a run needs on this machine and
// says, for each check that fails, the cause and a fix a person can paste. The
// sandbox check runs the real bubblewrap probe (the same privilege-dropping flags
// every command gets) and, when it fails, the diagnosis of sandbox-diagnosis.ts.
import { diagnoseSandbox, type SandboxCause, type SandboxFacts } from '../executors/confine/sandbox-diagnosis.js';
import type { LimitFacts } from '../executors/confine/command-limits.js';

export interface DoctorCheck {
  readonly name: 'node' | 'sandbox' | 'limits';
  readonly ok: boolean;
  /** What was found, in words. */
  readonly detail: string;
  /** For a failed check: a fix a person can paste. */
  readonly fix?: string;
  /** For a failed sandbox check: the cause (ZB_CONFINEMENT_UNAVAILABLE's details.cause). */
  readonly cause?: SandboxCause;
}

export interface DoctorReport {
  readonly ok: boolean;
  readonly checks: readonly DoctorCheck[];
}

/** Node 20.18 is the oldest the package declares (package.json engines). */
const MINIMUM_NODE: readonly [number, number] = [20, 18];

function nodeCheck(version: string): DoctorCheck {
  const [major, minor] = version.replace(/^v/u, '').split('.').map(Number) as [number, number];
  const ok = major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1]);
  return ok
    ? { name: 'node', ok, detail: `Node.js ${version}` }
    : {
        name: 'node',
        ok,
        detail: `Node.js ${version} is older than ${MINIMUM_NODE.join('.')}`,
        fix: `install Node.js ${MINIMUM_NODE[0]} (${MINIMUM_NODE.join('.')} or later) from https://nodejs.org or your package manager`,
      };
}

function sandboxCheck(facts: SandboxFacts): DoctorCheck {
  const diagnosis = diagnoseSandbox(facts);
  if (diagnosis.ok) return { name: 'sandbox', ok: true, detail: `bubblewrap ${diagnosis.bwrap} builds the unprivileged sandbox: commands run confined` };
  return { name: 'sandbox', ok: false, detail: diagnosis.summary, fix: diagnosis.fix, cause: diagnosis.cause };
}

/** Each confined command's resource limits (issue 24 §5): how they are enforced here; without prlimit, commands are refused. */
function limitsCheck(facts: LimitFacts): DoctorCheck {
  if (facts.prlimit !== undefined) return { name: 'limits', ok: true, detail: `per command, by default: ${facts.description}` };
  return {
    name: 'limits',
    ok: false,
    detail: "util-linux's prlimit is not installed, so commands cannot get their resource limits and are refused",
    fix: 'install util-linux: sudo apt-get install util-linux (Fedora: sudo dnf install util-linux)',
  };
}

/** The checks, from facts the caller read (mode.ts sandboxFacts and command-limits.ts limitFacts read the real ones). */
export function runDoctor(facts: SandboxFacts, nodeVersion: string = process.version, limits?: LimitFacts): DoctorReport {
  const checks = [nodeCheck(nodeVersion), sandboxCheck(facts), ...(limits === undefined ? [] : [limitsCheck(limits)])];
  return { ok: checks.every((check) => check.ok), checks };
}
