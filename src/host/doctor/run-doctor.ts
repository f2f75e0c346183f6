// `zotbox doctor` (issues 23 and 27): checks what a run needs on this machine and
// says, for each check that fails, the cause and a fix a person can paste. The
// sandbox check runs the real bubblewrap probe (the same privilege-dropping flags
// every command gets) and, when it fails, the diagnosis of sandbox-diagnosis.ts.
import { diagnoseSandbox, type SandboxCause, type SandboxFacts } from '../executors/confine/sandbox-diagnosis.js';
import type { LimitFacts } from '../executors/confine/command-limits.js';
import { requireUsableStateDirectory, stateDirectoryOrigin } from '../consent/state-dir.js';
import { API_KEY_VARIABLES, BUILT_IN_MODELS, hasModelCredentials, readUserModels, userModelsFile, type CatalogModel } from '../models/model-catalog.js';
import { toZotboxError } from '../../errors.js';

export interface DoctorCheck {
  readonly name: 'node' | 'sandbox' | 'limits' | 'state' | 'models' | 'keys' | 'user';
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

/** Where zotbox keeps state and the models (issue 27): the state directory, the models file, and which key variables are set (names only, never values). */
export function stateChecks(stateDirectory: string, env: Readonly<Record<string, string | undefined>>): DoctorCheck[] {
  const origin = stateDirectoryOrigin(env);
  const checks: DoctorCheck[] = [];
  try {
    requireUsableStateDirectory(stateDirectory, { origin, write: true });
    checks.push({ name: 'state', ok: true, detail: `state directory ${stateDirectory} (${origin === 'default' ? 'the default' : `from ${origin}`})` });
  } catch (error) {
    checks.push({
      name: 'state',
      ok: false,
      detail: toZotboxError(error).message,
      fix: `point ZOTBOX_HOME at a directory you can read and write, e.g. export ZOTBOX_HOME=${stateDirectory}-new, or fix ${stateDirectory}`,
    });
    return checks;
  }
  const file = userModelsFile(stateDirectory);
  let user: CatalogModel[];
  try {
    user = readUserModels(stateDirectory);
  } catch (error) {
    checks.push({ name: 'models', ok: false, detail: toZotboxError(error).message, fix: `correct ${file} (docs/models.md, The user models file), or move it away to use the built-in models only` });
    return checks;
  }
  checks.push({ name: 'models', ok: true, detail: `${BUILT_IN_MODELS.length} built-in models, ${user.length} in ${file}${user.length === 0 ? ' (none: zotbox models add declares one)' : ''}` });
  const variables = Object.values(API_KEY_VARIABLES);
  const set = variables.filter((name) => (env[name] ?? '') !== '');
  const usable = [...BUILT_IN_MODELS, ...user].filter((model) => hasModelCredentials(model, env)).map((model) => model.id);
  // Informational, never a failure: a machine used only for --replay runs needs no key.
  checks.push({
    name: 'keys',
    ok: true,
    detail:
      usable.length > 0
        ? `${set.length === 0 ? 'no key variable set' : `${set.join(' and ')} set`}; models usable: ${usable.join(', ')}`
        : `none of ${variables.join(', ')} is set, and no model in ${file} says it needs no key, so only --replay runs can work; to ask a model, export ANTHROPIC_API_KEY=… or OPENAI_API_KEY=…, or declare a local server that needs no key: zotbox models add ID --provider openai --base-url http://127.0.0.1:8080/v1 --context-window 32768 --no-key`,
  });
  return checks;
}

/**
 * As root, a line saying so (informational, never a failure), as `zotbox run` warns: commands still run as an
 * unprivileged user in the sandbox, but zotbox itself, and any --confine off run, has root's rights. None otherwise.
 */
export function userChecks(uid: number | undefined): DoctorCheck[] {
  if (uid !== 0) return [];
  return [
    {
      name: 'user',
      ok: true,
      detail:
        "running as root: commands still run as an unprivileged user in the sandbox, but zotbox itself (and a --confine off run) has root's rights; security.md advises running agents as an ordinary user",
    },
  ];
}

/** The checks, from facts the caller read (mode.ts sandboxFacts and command-limits.ts limitFacts read the real ones). */
export function runDoctor(facts: SandboxFacts, nodeVersion: string = process.version, limits?: LimitFacts, state: readonly DoctorCheck[] = []): DoctorReport {
  const checks = [nodeCheck(nodeVersion), sandboxCheck(facts), ...(limits === undefined ? [] : [limitsCheck(limits)]), ...state];
  return { ok: checks.every((check) => check.ok), checks };
}
