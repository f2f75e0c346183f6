// Shell decisions for the bash tool (Part A, gate-rules §1-§5). In allowlist
// mode a command is parsed into an AST (shell-parse.ts) and every simple
// command must pass: its assignments, its program's identity (a PATH lookup in
// the fixed search path, never a basename match on a path the agent chose), the
// allowlist, the argument rules (exec-rules.ts), and its path arguments and cd
// targets against the scopes. A wrapper (wrapper-rules.ts) grants nothing: what
// it runs is checked the same way, as if it stood alone. The approved decision
// carries the parsed line and the plan decided up front; the executor decides
// each pipeline again just before it starts (decidePipeline, gate-rules §10) and
// runs the steps that decision returns. Never throws.
import type { NetRule } from './net-allow.js';
import { realpathSync } from 'node:fs';
import type { ErrorCode } from '../errors.js';
import { decideAssignment, decideUnset } from './assignment-rules.js';
import { builtInRuleOf, checkProgramArguments, checkWithRule } from './argument-rules/check-arguments.js';
import { decideArgumentPath } from './argument-rules/value-kinds.js';
import { FOUND_FILE, readFindCommands } from './argument-rules/find-expression.js';
import type { FoundFiles } from './argument-rules/value-kinds.js';
import { ALWAYS_DENIED, SHELL_ONLY_BUILTINS } from './never-allowed.js';
import type { BashMode } from './manifest.js';
import { imageEntryOf } from './image-paths.js';
import { PathNotes } from './path-notes.js';
import { stateDirectoryBelow } from './path-decision.js';
import { absoluteFrom, resolveCanonicalPath } from './path-resolve.js';
import type { CompiledScopes } from './scopes.js';
import { deny as no, denyWithin, type Check, type Unlisted } from './shell-check.js';
import { findProgram } from './program-lookup.js';
import { checkProgramIdentity } from './program-identity.js';
import { checkProgramLocation } from './program-location.js';
import { checkProgramLoadsUnconfined } from './program-loads.js';
import { checkStandInUnconfined } from './program-stand-in.js';
import { checkSearchPathUnconfined } from './search-path-audit.js';
import { parseShellCommand, type Assignment, type Connector, type Pipeline, type ShellAst, type SimpleCommand } from './shell-parse.js';
import { MAX_WRAPPER_DEPTH, UNCHECKED_RUNNERS, WRAPPERS, type WrapperRule } from './wrapper-rules.js';
import { unwrapCommand } from './wrapper-unwrap.js';

// Program lookup lives in program-lookup.ts (light to import); the gate's users import it from here too.
export { findProgram, lookupProgram } from './program-lookup.js';
export type { Unlisted } from './shell-check.js';

export interface ShellContext {
  readonly mode: BashMode;
  readonly allow: readonly string[];
  /** Scopes for cd targets and path arguments; the workspace is where commands start. */
  readonly scopes: CompiledScopes;
  /** The fixed PATH commands are looked up in and run with (the executor uses the same). */
  readonly searchPath: readonly string[];
  /** Directories from which a program may be written as an absolute path. */
  readonly trustedDirectories: readonly string[];
  /** Whether commands run inside the sandbox. A program with no argument rule may run only then; absent means not. */
  readonly confined?: boolean;
  /** Where the paths decided for one call are recorded (decideShellCommand makes one per call; the executor's re-check has none). */
  readonly notes?: PathNotes;
  /** permissions.net.allow: a URL a command names (curl, wget, a git remote, a registry) must be on it; absent means empty. */
  readonly net?: readonly NetRule[];
}

export type PlannedStep =
  | {
      readonly kind: 'exec';
      /** Canonical path of the approved program. */
      readonly program: string;
      /** Where it was found (the PATH entry or the trusted path as written): same file, its own basename, for multi-call binaries. */
      readonly invokedPath: string;
      readonly argv: readonly string[];
      readonly env: Readonly<Record<string, string>>;
      readonly cwd: string;
    }
  | { readonly kind: 'cd'; readonly directory: string };

export interface ExecutionPlan {
  readonly items: readonly { readonly connector: Connector | null; readonly pipeline: readonly PlannedStep[] }[];
}

/**
 * What the gate learnt of a call's commands while deciding it, allowed or denied: for
 * the record (the gate.decision event), never for a decision (issue 22 §1).
 */
export interface ShellFacts {
  /** Each simple command's argv as the parser read it (quotes removed), in order; absent when the line did not parse. */
  readonly argv?: readonly (readonly string[])[];
  /** The canonical paths the gate decided for the commands' path arguments and cd targets, allowed or denied, each once. */
  readonly paths: readonly string[];
  /**
   * Whether `paths` holds every path the commands name: false in ask mode (nothing is decided), for a denied line
   * (its later commands were never decided), for a program without an argument rule or one that runs code from
   * files, and for a path decided without a canonical path.
   */
  readonly pathsComplete: boolean;
}

export type ShellDecision =
  | { readonly allow: true; readonly mode: 'ask'; readonly command: string; readonly facts?: ShellFacts }
  | {
      readonly allow: true;
      readonly mode: 'allowlist';
      readonly command: string;
      /** What was decided up front, for audit and `zotbox check`; the executor runs what decidePipeline returns when each pipeline starts. */
      readonly plan: ExecutionPlan;
      /** The parsed line: the executor decides each of its pipelines again, in order, just before starting it. */
      readonly ast: ShellAst;
      readonly facts?: ShellFacts;
      /**
       * Programs the user approved at the terminal (issue 27 §6), added to the allowlist for this call: the executor
       * decides each pipeline again with them, and with every other check as before. Absent when none.
       */
      readonly approvedPrograms?: readonly string[];
    }
  | {
      readonly allow: false;
      readonly command: string;
      readonly code: ErrorCode;
      readonly reason: string;
      readonly facts?: ShellFacts;
      /** Set when the first denied command was denied only for not being allowlisted: the user may approve it (--approve). */
      readonly unlisted?: Unlisted;
    };

/** Leading assignments (gate-rules §5): any name outside the dangerous set, with a literal value. */
function checkAssignments(assignments: readonly Assignment[]): Check<Record<string, string>> {
  const env: Record<string, string> = {};
  for (const { name, value } of assignments) {
    const decision = decideAssignment(name, value);
    if (!decision.ok) return decision;
    env[name] = value;
  }
  return { ok: true, value: env };
}

/** Identity (gate-rules §2): a plain name found on the fixed PATH, or an absolute path in a trusted directory that is that same file. */
function identifyProgram(written: string, context: ShellContext, requireAllowlisted: boolean): Check<{ name: string; program: string; invokedPath: string }> {
  let name = written;
  if (written.includes('/')) {
    const slash = written.lastIndexOf('/');
    const directory = written.slice(0, slash);
    name = written.slice(slash + 1);
    if (!written.startsWith('/') || !context.trustedDirectories.includes(directory)) {
      return no('ZB_POLICY_SHELL_PROGRAM', `${JSON.stringify(written)} is denied: a program may be written as a path only from ${context.trustedDirectories.join(', ')}; write its name instead.`);
    }
  }
  if (requireAllowlisted && !context.allow.includes(name)) {
    const reason = `${JSON.stringify(name)} is not in this agent's bash allowlist (${context.allow.join(', ')}).`;
    // Approvable (issue 27 §6) only when it names a program that exists; approving it waives this check alone.
    const found = findProgram(name, context.searchPath);
    if (found === undefined) return no('ZB_POLICY_SHELL_NOT_ALLOWED', reason);
    // A file the agent can change is never offered for approval.
    const location = checkProgramLocation(name, found, context.scopes);
    if (!location.ok) return location;
    const unlisted = { name, program: found.program, ...(builtInRuleOf(name) === undefined ? { noArgumentRule: true as const } : {}) };
    return { ok: false, code: 'ZB_POLICY_SHELL_NOT_ALLOWED', reason, unlisted };
  }
  const found = findProgram(name, context.searchPath);
  if (found === undefined) return no('ZB_POLICY_SHELL_PROGRAM', `${JSON.stringify(name)} was not found on the PATH commands run with (${context.searchPath.join(':')}).`);
  const location = checkProgramLocation(name, found, context.scopes);
  if (!location.ok) return location;
  if (context.confined !== true) {
    const searchPath = checkSearchPathUnconfined(context.searchPath, context.scopes);
    if (!searchPath.ok) return searchPath;
    const standIn = checkStandInUnconfined(name, found.program);
    if (!standIn.ok) return standIn;
    const loads = checkProgramLoadsUnconfined(name, found, context.scopes);
    if (!loads.ok) return loads;
  }
  const program = found.program;
  if (written.includes('/')) {
    let real: string;
    try {
      real = realpathSync.native(written);
    } catch {
      return no('ZB_POLICY_SHELL_PROGRAM', `${JSON.stringify(written)} does not exist.`);
    }
    if (real !== program) return no('ZB_POLICY_SHELL_PROGRAM', `${JSON.stringify(written)} is not the ${name} found on the PATH (${program}).`);
  }
  return { ok: true, value: { name, program, invokedPath: written.includes('/') ? written : found.foundAt } };
}

/** Where a command stands: how many wrappers run it, and which of them, if any, runs it as a child process. */
interface Wrapping {
  readonly depth: number;
  readonly forkedBy: string | undefined;
  /** Programs of this command (itself, or what its wrappers and find -exec run) that create, move, link or remove names. */
  readonly changesNames: string[];
  /** Inside find -exec: what "{}" stands for. */
  readonly found?: FoundFiles;
}

/** How many files "{} +" may pass, as far as the classification of a program's arguments can tell apart: one, two, or more. */
const BATCH_SIZES = [1, 2, 3, 4];

/**
 * What find -exec runs: each command checked as if it stood alone, run by find
 * from its own directory, with "{}" standing for files under the starting points
 * (value-kinds.ts checkFoundFiles). "{} +" passes several files at once, and the
 * program may read a second file differently from the first (cp's last one is
 * the destination): each count of files is checked.
 */
function checkFindCommands(command: SimpleCommand, context: ShellContext, cwd: string, wrapping: Wrapping): Check<null> {
  if (wrapping.depth >= MAX_WRAPPER_DEPTH) return no('ZB_POLICY_SHELL_NOT_ALLOWED', `more than ${MAX_WRAPPER_DEPTH} nested wrappers and find -exec; write the command with fewer.`);
  // "{}" of an outer find would become the starting point of this one: its files are not known to be checked.
  if (wrapping.found !== undefined) return no('ZB_POLICY_SHELL_ARGUMENT', 'find run by find -exec is not allowed; run one find with the tests of both.');
  const read = readFindCommands('find', command.argv.slice(1));
  if (!read.ok) return read;
  const found: FoundFiles = { roots: read.value.roots, cwd };
  for (const { argv, batch } of read.value.commands) {
    for (const count of batch ? BATCH_SIZES : [1]) {
      const expanded = batch ? argv.flatMap((word) => (word === FOUND_FILE ? Array<string>(count).fill(FOUND_FILE) : [word])) : argv;
      const inner = checkCommand({ assignments: [], argv: expanded }, context, cwd, { depth: wrapping.depth + 1, forkedBy: 'find', changesNames: wrapping.changesNames, found });
      if (!inner.ok) return denyWithin(inner, 'find -exec: ');
    }
  }
  return { ok: true, value: null };
}

const standalone = (): Wrapping => ({ depth: 0, forkedBy: undefined, changesNames: [] });

/** Checks one simple command; what a wrapper or find -exec runs is checked the same way, as if it stood alone. */
function checkCommand(command: SimpleCommand, context: ShellContext, cwd: string, wrapping: Wrapping): Check<PlannedStep> {
  // Unconfined, a program run in a directory that holds the state directory may walk into it ("grep -r x", "ls -R", "du").
  const held = context.confined === true ? undefined : stateDirectoryBelow(cwd, context.scopes.context);
  if (held !== undefined) {
    return no(
      'ZB_POLICY_PATH_PROTECTED',
      `${command.argv[0] ?? 'the command'} would run in ${cwd}, which holds the zotbox state directory (${held}: consents, sessions, every agent's data), and confinement is off for this run, so a program walking its working directory would read or change that too. Fix: cd into a directory below it that does not hold ${held}, run with confinement (drop --confine off), or move the state directory out of the workspace (ZOTBOX_HOME).`,
    );
  }
  const assignments = checkAssignments(command.assignments);
  if (!assignments.ok) return assignments;
  const written = command.argv[0]!;
  const base = written.slice(written.lastIndexOf('/') + 1);
  const lookup = lookupForm(command.argv);
  if (lookup !== undefined) return checkCommandLookup(command, lookup, assignments.value, context, cwd, wrapping);
  const never = ALWAYS_DENIED.get(base);
  if (never !== undefined) return no('ZB_POLICY_SHELL_NOT_ALLOWED', `${base} is never allowed: it ${never}.`);
  if (SHELL_ONLY_BUILTINS.has(base)) return no('ZB_POLICY_SHELL_NOT_ALLOWED', `${base} is a shell builtin that changes or inspects a shell's own state; it has no effect here and is denied.`);
  if (base === 'cd') return no('ZB_POLICY_SHELL_CD', 'cd is allowed only alone in its part of the command (not in a pipeline, after a wrapper or with assignments).');
  const runner = UNCHECKED_RUNNERS.get(base);
  if (runner !== undefined) return no('ZB_POLICY_SHELL_NOT_ALLOWED', `${base} is never allowed: it ${runner}, so what it runs cannot be checked. Run the command itself.`);
  // Allowlisted or not, a wrapper grants nothing to what it runs (gate-rules §4).
  const wrapper = WRAPPERS.get(base);
  if (wrapper !== undefined) return checkWrapped(command, base, wrapper, assignments.value, context, cwd, wrapping);

  // Decided by what runs (adv27): a name for a file zotbox knows under another name takes that name's denial or rule.
  const resolved = findProgram(base, context.searchPath);
  const alsoRuled = resolved === undefined ? undefined : checkProgramIdentity(base, resolved.program, context.searchPath);
  if (alsoRuled !== undefined && !alsoRuled.ok) return alsoRuled;
  const identity = identifyProgram(written, context, true);
  if (!identity.ok) return identity;
  if (identity.value.name === 'find') {
    const commands = checkFindCommands(command, context, cwd, wrapping);
    if (!commands.ok) return commands;
  }
  const argumentContext = {
    scopes: context.scopes,
    cwd,
    net: context.net ?? [],
    ...(context.confined === true ? { confined: true } : {}),
    ...(wrapping.found === undefined ? {} : { found: wrapping.found }),
    ...(context.notes === undefined ? {} : { notes: context.notes }),
  };
  const args = checkProgramArguments(identity.value.name, command.argv.slice(1), argumentContext);
  if (!args.ok) return args;
  // The same file under another name with a rule of its own: that rule must allow the arguments too (the stricter decides).
  for (const [other, rule] of alsoRuled?.value ?? []) {
    const also = checkWithRule(other, rule, command.argv.slice(1), argumentContext);
    if (!also.ok) return denyWithin(also, `${base} is ${identity.value.program}, which is also ${other}: `);
  }
  // Nothing decided which files such a command touches: the record says its paths are not all known.
  if (args.value.rule === 'none' || args.value.runsProjectCode) context.notes?.unknown();
  // Without a rule nothing was checked of its arguments: only the sandbox bounds what it does.
  if (args.value.rule === 'ruled' && args.value.writes === 'names') wrapping.changesNames.push(identity.value.name);
  if (args.value.rule === 'none' && context.confined !== true) {
    return no(
      'ZB_POLICY_SHELL_NO_RULE',
      `${identity.value.name} has no built-in argument rule, so zotbox cannot check what its arguments make it do; such programs run only inside the sandbox, and confinement is off for this run. Fix: run with confinement (install bubblewrap, drop --confine off), or use a program that has a rule (docs/permissions.md lists them).`,
    );
  }
  // Scripts, makefiles, package scripts and tests are code the agent can write: like a program without a rule, only the sandbox bounds them.
  if (args.value.rule === 'ruled' && args.value.runsProjectCode && context.confined !== true) {
    return no(
      'ZB_POLICY_SHELL_NO_RULE',
      `${describeSimpleCommand(command)} runs code from files the agent can write (a script, a makefile, package scripts or tests), which no argument rule can check; such commands run only inside the sandbox, and confinement is off for this run. Fix: run with confinement (install bubblewrap, drop --confine off).`,
    );
  }
  return { ok: true, value: { kind: 'exec', program: identity.value.program, invokedPath: identity.value.invokedPath, argv: command.argv, env: assignments.value, cwd } };
}

/** A name command -v and type may look up: a program's name, never a path or an option. */
const LOOKUP_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/;

/** What a lookup prints for a program found at PATH: printf's format and arguments. */
type LookupOutput = (name: string, found: string) => readonly string[];

/** The builtins that only say where a program is found, by form: command -v, command -V, type, type -p/-P, type -t. */
const LOOKUPS: ReadonlyMap<string, LookupOutput> = new Map<string, LookupOutput>([
  ['command -v', (_name, found) => ['%s\\n', found]],
  ['command -V', (name, found) => ['%s is %s\\n', name, found]],
  ['type', (name, found) => ['%s is %s\\n', name, found]],
  ['type -p', (_name, found) => ['%s\\n', found]],
  ['type -P', (_name, found) => ['%s\\n', found]],
  ['type -t', () => ['file\\n']],
]);

/** The lookup form of argv ("command -v", "type"), when it is one: command and type followed by an option other than a lookup's are not. */
function lookupForm(argv: readonly string[]): string | undefined {
  const base = argv[0]!.slice(argv[0]!.lastIndexOf('/') + 1);
  const option = argv[1]?.startsWith('-') === true ? argv[1] : undefined;
  if (base === 'command') return option === '-v' || option === '-V' ? `command ${option}` : undefined;
  if (base === 'type') return option === undefined ? 'type' : `type ${option}`;
  return undefined;
}

/**
 * command -v NAME, command -V NAME and type NAME: shell builtins that say where
 * NAME is found and run nothing. The gate answers them itself, from the fixed
 * PATH commands run with (decided again when the step starts): the plan prints
 * what was found with printf, or runs false when nothing is, as bash does for a
 * program it cannot find. One name, and only first in a command, like the builtins.
 */
function checkCommandLookup(command: SimpleCommand, form: string, env: Record<string, string>, context: ShellContext, cwd: string, wrapping: Wrapping): Check<PlannedStep> {
  const output = LOOKUPS.get(form);
  if (output === undefined) {
    return no('ZB_POLICY_SHELL_ARGUMENT', `${form} is not a lookup zotbox answers: write ${[...LOOKUPS.keys()].map((f) => `${f} NAME`).join(', ')}.`);
  }
  if (wrapping.depth > 0 || command.argv[0]!.includes('/')) {
    return no(
      'ZB_POLICY_SHELL_NOT_ALLOWED',
      `${form} is a shell builtin only first in a command; inside another wrapper or written as a path it would run as a program. Write ${form} NAME on its own.`,
    );
  }
  const words = form.split(' ').length;
  const name = command.argv[words];
  if (command.argv.length !== words + 1 || name === undefined || !LOOKUP_NAME.test(name)) {
    return no('ZB_POLICY_SHELL_ARGUMENT', `${form} takes exactly one program name here (letters, digits and _ . + -, no path, no option): write ${form} NAME, once per name.`);
  }
  const found = findProgram(name, context.searchPath);
  const printer = found === undefined ? 'false' : 'printf';
  const program = findProgram(printer, context.searchPath);
  if (program === undefined) return no('ZB_POLICY_SHELL_PROGRAM', `${form}: ${printer} was not found on the PATH commands run with (${context.searchPath.join(':')}).`);
  const argv = found === undefined ? ['false'] : ['printf', ...output(name, found.foundAt)];
  return { ok: true, value: { kind: 'exec', program: program.program, invokedPath: program.foundAt, argv, env, cwd } };
}

/**
 * A wrapper: its own arguments read by its table row, what it changes checked
 * (env's assignments and -u names, -C as a cd), and the command it runs checked
 * as if it stood alone. The plan runs the wrapper with its whole argv, as approved;
 * only the builtin `command` is stripped, and only where bash would strip it.
 */
function checkWrapped(command: SimpleCommand, base: string, wrapper: WrapperRule, env: Record<string, string>, context: ShellContext, cwd: string, wrapping: Wrapping): Check<PlannedStep> {
  if (wrapper.kind === 'builtin' && (wrapping.depth > 0 || command.argv[0]!.includes('/'))) {
    return no(
      'ZB_POLICY_SHELL_NOT_ALLOWED',
      `${base} is a shell builtin, stripped only when it comes first in a command; inside another wrapper or written as a path it would run as a program. Write the command without it.`,
    );
  }
  if (wrapping.depth >= MAX_WRAPPER_DEPTH) return no('ZB_POLICY_SHELL_NOT_ALLOWED', `more than ${MAX_WRAPPER_DEPTH} nested wrappers; write the command with fewer.`);
  // The executor starts each command as the leader of its own process group and kills that group on timeout; run as a child, timeout leaves it.
  if (wrapper.newProcessGroup === true && wrapping.forkedBy !== undefined) {
    return no(
      'ZB_POLICY_SHELL_NOT_ALLOWED',
      `${base} run by ${wrapping.forkedBy} would move the command into a process group of its own, which the run's time limit cannot stop. Use ${base} only first or after wrappers that do not fork (nice, nohup, stdbuf, ionice, env).`,
    );
  }
  const unwrapped = unwrapCommand(base, wrapper, command.argv.slice(1));
  if (!unwrapped.ok) return unwrapped;
  for (const name of unwrapped.value.unset) {
    const unset = decideUnset(name);
    if (!unset.ok) return unset;
  }
  if (unwrapped.value.inner.length === 0) {
    // No command: not a wrapper here but a program of its own (env printing the environment), so the allowlist decides.
    if (unwrapped.value.directory !== undefined) return no('ZB_POLICY_SHELL_ARGUMENT', `${base} -C needs a command to run.`);
    const program = identifyProgram(command.argv[0]!, context, true);
    if (!program.ok) return denyWithin(program, `${base} with no command ${wrapper.standalone ?? 'runs nothing'}: `);
    const assignments = checkAssignments(unwrapped.value.assignments);
    if (!assignments.ok) return no(assignments.code, `${base}: ${assignments.reason}`);
    return { ok: true, value: { kind: 'exec', program: program.value.program, invokedPath: program.value.invokedPath, argv: command.argv, env, cwd } };
  }
  let innerCwd = cwd;
  if (unwrapped.value.directory !== undefined) {
    const directory = checkDirectory(`${base} -C`, unwrapped.value.directory, context, cwd);
    if (!directory.ok) return directory;
    innerCwd = directory.value;
  }
  const inner = checkCommand({ assignments: wrapper.kind === 'builtin' ? command.assignments : unwrapped.value.assignments, argv: unwrapped.value.inner }, context, innerCwd, {
    depth: wrapping.depth + 1,
    forkedBy: wrapper.forks === true ? base : wrapping.forkedBy,
    changesNames: wrapping.changesNames,
    ...(wrapping.found === undefined ? {} : { found: wrapping.found }),
  });
  if (!inner.ok) return denyWithin(inner, `${base}: `);
  if (wrapper.kind === 'builtin') return inner;
  const program = identifyProgram(command.argv[0]!, context, false);
  if (!program.ok) return program;
  return { ok: true, value: { kind: 'exec', program: program.value.program, invokedPath: program.value.invokedPath, argv: command.argv, env, cwd } };
}

/** A directory a command starts in (cd, env -C): inside the read scopes and an existing directory, canonicalised. */
function checkDirectory(what: string, target: string, context: ShellContext, cwd: string): Check<string> {
  const decision = decideArgumentPath('read', absoluteFrom(cwd, target), context);
  if (!decision.allow) return no(decision.code === 'ZB_POLICY_PATH_OUTSIDE_SCOPE' ? 'ZB_POLICY_SHELL_CD' : decision.code, `${what} ${decision.reason}`);
  // In the agent's package the image says what is a directory (the sandbox mounts exactly it); nothing is resolved on the host.
  const image = imageEntryOf(decision.canonicalPath);
  if (image !== undefined) {
    if (context.scopes.context.image?.kindOf(image.entry) === 'directory') return { ok: true, value: image.virtual };
    return no('ZB_POLICY_SHELL_CD', `${what} denied: ${image.virtual} is not a directory of the agent's package.`);
  }
  const resolved = resolveCanonicalPath(decision.canonicalPath, { withStats: true });
  if (!resolved.ok || resolved.stats?.isDirectory !== true) return no('ZB_POLICY_SHELL_CD', `${what} denied: ${decision.canonicalPath} is not an existing directory.`);
  return { ok: true, value: decision.canonicalPath };
}

function checkCd(command: SimpleCommand, context: ShellContext, cwd: string): Check<string> {
  if (command.assignments.length > 0 || command.argv.length !== 2 || command.argv[1]!.startsWith('-')) {
    return no('ZB_POLICY_SHELL_CD', 'cd takes exactly one directory (no options, no "-", no assignments).');
  }
  return checkDirectory('cd', command.argv[1]!, context, cwd);
}

/** The decision for one pipeline, from a given working directory, against the filesystem as it is now. */
export type PipelineDecision =
  | { readonly allow: true; readonly steps: readonly PlannedStep[] }
  | { readonly allow: false; readonly code: ErrorCode; readonly reason: string; readonly command: SimpleCommand; readonly unlisted?: Unlisted };

/** Where an allowlisted line starts: the workspace, for the gate and the executor alike. */
export function shellStartDirectory(context: ShellContext): string {
  return context.scopes.context.workspace;
}

/** The working directory after a pipeline's steps have run: a lone cd moves it, anything else leaves it. */
export function directoryAfter(steps: readonly PlannedStep[], cwd: string): string {
  const only = steps.length === 1 ? steps[0] : undefined;
  return only?.kind === 'cd' ? only.directory : cwd;
}

/**
 * Decides one pipeline of an allowlisted line, all its commands as one group
 * (they start together): a lone cd, or simple commands each checked from `cwd`.
 * decideShellCommand calls it for every pipeline before anything runs; the
 * executor calls it again just before each pipeline starts, so an earlier
 * command cannot change what an approved later one touches (gate-rules §10).
 */
export function decidePipeline(pipeline: Pipeline, context: ShellContext, cwd: string): PipelineDecision {
  // Only allowlist mode has pipelines to decide; any other mode here is a caller's mistake, denied.
  if (context.mode !== 'allowlist') {
    return {
      allow: false,
      code: 'ZB_POLICY_NO_PERMISSION',
      reason: `commands are decided one by one only in allowlist mode (permissions.bash.mode is "${context.mode}").`,
      command: pipeline.commands[0]!,
    };
  }
  const steps: PlannedStep[] = [];
  for (const simple of pipeline.commands) {
    const wrapping = standalone();
    const checked: Check<PlannedStep> =
      simple.argv[0] === 'cd' && pipeline.commands.length === 1 ? mapCheck(checkCd(simple, context, cwd), (directory) => ({ kind: 'cd', directory })) : checkCommand(simple, context, cwd, wrapping);
    if (!checked.ok) return { allow: false, code: checked.code, reason: checked.reason, command: simple, ...(checked.unlisted === undefined ? {} : { unlisted: checked.unlisted }) };
    // The commands of a pipeline run at the same time, all decided before the first starts: one that renames,
    // links or removes could make a path another was approved for lead elsewhere while it runs.
    const renamer = wrapping.changesNames[0];
    if (renamer !== undefined && pipeline.commands.length > 1) {
      return {
        allow: false,
        code: 'ZB_POLICY_SHELL_ARGUMENT',
        reason: `${renamer} creates, moves, links or removes files, and the commands of a pipeline run at the same time, after one decision for all of them: it could change what another command of the pipeline touches. Fix: run it on its own, joined to the rest with && or ; (each is then decided when it starts).`,
        command: simple,
      };
    }
    steps.push(checked.value);
  }
  return { allow: true, steps };
}

function mapCheck<T, U>(check: Check<T>, map: (value: T) => U): Check<U> {
  return check.ok ? { ok: true, value: map(check.value) } : check;
}

/** A simple command as the agent wrote it (assignments and argv joined by spaces), for messages. */
export function describeSimpleCommand(command: SimpleCommand): string {
  return [...command.assignments.map((a) => `${a.name}=${a.value}`), ...command.argv].join(' ');
}

/** Every simple command's argv in the parsed line, in order. */
function parsedArgv(ast: ShellAst): string[][] {
  return ast.items.flatMap((item) => item.pipeline.commands.map((command) => [...command.argv]));
}

/** Decides one bash tool call, with what the gate learnt of its commands (ShellFacts). Never throws. */
export function decideShellCommand(command: string, context: ShellContext): ShellDecision {
  const notes = new PathNotes();
  let argv: string[][] | undefined;
  const facts = (): ShellFacts => ({ ...(argv === undefined ? {} : { argv }), paths: notes.paths, pathsComplete: notes.complete });
  const deny = (code: ErrorCode, reason: string, unlisted?: Unlisted): ShellDecision => {
    notes.unknown(); // the commands after the denied one were never decided
    return { allow: false, command, code, reason: `bash denied: ${reason}`, facts: facts(), ...(unlisted === undefined ? {} : { unlisted }) };
  };
  if (context.mode === 'none') {
    // Read for the record only: what the refused line would have run, when the parser reads it.
    const parsed = parseShellCommand(command);
    if (parsed.ok) argv = parsedArgv(parsed.ast);
    return deny('ZB_POLICY_NO_PERMISSION', 'this agent has no bash permission (permissions.bash.mode is "none").');
  }
  if (context.mode === 'ask') {
    // The user consented to arbitrary commands at launch (and confinement bounds them); only bytes bash cannot take are refused.
    if (command.trim().length === 0) return deny('ZB_POLICY_SHELL_CONSTRUCT', 'the command is empty.');
    if (command.includes('\u0000')) return deny('ZB_POLICY_SHELL_CONSTRUCT', 'the command contains a NUL byte.');
    // Read for the record only, never decided: what it runs when the parser reads it, and no path known.
    const parsed = parseShellCommand(command);
    if (parsed.ok) argv = parsedArgv(parsed.ast);
    notes.unknown();
    return { allow: true, mode: 'ask', command, facts: facts() };
  }
  const parsed = parseShellCommand(command);
  if (!parsed.ok) return deny('ZB_POLICY_SHELL_CONSTRUCT', parsed.reason);
  argv = parsedArgv(parsed.ast);
  const noted: ShellContext = { ...context, notes };
  let cwd = shellStartDirectory(context);
  const items: { connector: Connector | null; pipeline: readonly PlannedStep[] }[] = [];
  for (const item of parsed.ast.items) {
    const decided = decidePipeline(item.pipeline, noted, cwd);
    if (!decided.allow) return deny(decided.code, decided.reason, decided.unlisted);
    // Later commands are checked from here; the executor decides each again, from where it really is, when it runs.
    cwd = directoryAfter(decided.steps, cwd);
    items.push({ connector: item.connector, pipeline: decided.steps });
  }
  return { allow: true, mode: 'allowlist', command, plan: { items }, ast: parsed.ast, facts: facts() };
}
