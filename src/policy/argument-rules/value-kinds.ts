// Checks each classified argument by its kind (rule-format.ts ValueKind): paths
// against the scopes like the file tools, link sources and targets so links
// cannot widen permissions (issue 10 item 4), URLs by scheme, program text by
// its parser. The one place a kind gets its meaning; never throws.
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';
import { isImagePath } from '../image-paths.js';
import { decidePathAccess, decideUnconfinedTree, type PathDecision, type PathTool } from '../path-decision.js';
import type { PathNotes } from '../path-notes.js';
import { absoluteFrom, resolveCanonicalPath } from '../path-resolve.js';
import type { CompiledScopes } from '../scopes.js';
import { deny as no, type Check } from '../shell-check.js';
import { checkLinksInTree, MAX_WALKED_ENTRIES } from './link-walk.js';
import type { ParsedArguments, ParsedValue } from './parse-arguments.js';
import { checkAwkProgram, checkJqFilter, checkSedScript } from './program-text.js';
import type { ValueKind } from './rule-format.js';
import { resolveSkillModule } from './skill-module.js';
import type { NetRule } from '../net-allow.js';
import { decideNetUrl } from '../net-url.js';

export interface ArgumentContext {
  readonly scopes: CompiledScopes;
  /** The directory the command runs in; relative paths are joined to it. */
  readonly cwd: string;
  /** For a command find -exec runs: what "{}" stands for. */
  readonly found?: FoundFiles;
  /** Where every path decided for the command is recorded, for the gate's record (path-notes.ts); none for the executor's re-check. */
  readonly notes?: PathNotes;
  /** permissions.net.allow: every URL must be on it (closed world; absent means empty, so every URL is denied). */
  readonly net?: readonly NetRule[];
  /** True when the command runs in the sandbox; otherwise no path given to it may hold the state directory (decideUnconfinedTree). */
  readonly confined?: boolean;
}

/** decidePathAccess for a path the command names, recorded in the context's notes: every path argument decision goes through here. */
export function decideArgumentPath(tool: PathTool, absolute: string, context: Pick<ArgumentContext, 'scopes' | 'notes' | 'confined'>): PathDecision {
  const access = decidePathAccess(tool, absolute, context.scopes);
  const decision = context.confined === true ? access : decideUnconfinedTree(access, context.scopes.context);
  context.notes?.note(decision);
  return decision;
}

/** The files find -exec passes in place of "{}": any entry under these starting points, as find names it. */
export interface FoundFiles {
  /** The starting points as written, relative to `cwd`. */
  readonly roots: readonly string[];
  /** The directory find runs in, and so where its relative names lead. */
  readonly cwd: string;
}

/** The placeholder find fills in with each file it finds (find-expression.ts FOUND_FILE). */
const FOUND_FILE = '{}';

/**
 * "{}" in a command find -exec runs: each file found, known only at run time. It
 * may stand only where the program reads a file, and is decided as the starting
 * points with every link under them followed (the program opens a link it is
 * given), so whatever find passes lies inside the read scopes.
 */
function checkFoundFiles(program: string, kind: ValueKind, value: ParsedValue, marks: ReadonlySet<string>, context: ArgumentContext, found: FoundFiles): Check<null> {
  if (kind !== 'read') {
    return no(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${program}: {} (${value.written === value.text ? 'an argument' : value.written}) stands for the files find finds, and ${program} does not read it as a file there; run find to list the files, then ${program} on them in a separate command.`,
    );
  }
  if (context.cwd !== found.cwd && found.roots.some((root) => !root.startsWith('/'))) {
    return no(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${program}: {} names files relative to where find runs (${found.cwd}), but ${program} runs from ${context.cwd}; give find absolute starting points or drop the change of directory.`,
    );
  }
  const following = new Set([...marks, FOLLOWS_LINKS]);
  following.delete(KEEPS_LINKS);
  for (const root of found.roots) {
    const checked = checkPath(program, 'read', { kind, text: absoluteFrom(found.cwd, root), written: `{} (the files under ${root})` }, following, context);
    if (!checked.ok) return checked;
  }
  return { ok: true, value: null };
}

/** The mark an option sets when the program follows symbolic links it finds inside directories (cp -rL, grep -R). */
export const FOLLOWS_LINKS = 'follow-links';

/** The mark an option sets when it makes the program store or copy links as links after all (zip -y): no tree is followed. */
export const KEEPS_LINKS = 'keeps-links';

const SIZE = /^[+-]?[0-9]+(?:\.[0-9]+)?(?:[KMGTPEZYkmgtpezyb]|[KMGTPEZYkmgtpezy]i?B)?$/;
const MODULE = /^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$/;

function pathDecision(program: string, tool: PathTool, value: ParsedValue, context: ArgumentContext): Check<string> {
  const decision = decideArgumentPath(tool, absoluteFrom(context.cwd, value.text), context);
  if (!decision.allow) return no(decision.code, `${program}: ${decision.reason}`);
  return { ok: true, value: decision.canonicalPath };
}

function checkPath(program: string, tool: PathTool, value: ParsedValue, marks: ReadonlySet<string>, context: ArgumentContext): Check<null> {
  // A lone "-" is standard input or output, never a file name, for the programs whose rules allow it as a read.
  if (tool === 'read' && value.text === '-') return { ok: true, value: null };
  const decided = pathDecision(program, tool, value, context);
  if (!decided.ok) return decided;
  if (tool === 'write') {
    // A program may replace or remove a link itself (rm, mv, ln -f) rather than write through it: the link's own directory must be writable too.
    const absolute = absoluteFrom(context.cwd, value.text);
    if (lstatSync(absolute, { throwIfNoEntry: false })?.isSymbolicLink() === true) {
      const home = decidePathAccess('write', path.dirname(absolute), context.scopes);
      if (!home.allow) return no(home.code, `${program}: ${value.written} is a symbolic link, which the program may replace or remove where it is: ${home.reason}`);
    }
  }
  // The agent's package holds no links (image-paths.ts): there is nothing in it to follow, and nothing on the host to walk.
  if (marks.has(FOLLOWS_LINKS) && !marks.has(KEEPS_LINKS) && !isImagePath(decided.value)) {
    const walked = checkLinksInTree(decided.value, tool, context.scopes, MAX_WALKED_ENTRIES, context.confined === true);
    if (!walked.ok) return no(walked.code, `${program}: ${value.written} follows links inside it: ${walked.reason}`);
  }
  return { ok: true, value: null };
}

/** python -m NAME of the skill folder the command runs in: the file it resolves to there is read like a script's path. */
function checkSkillModule(program: string, value: ParsedValue, marks: ReadonlySet<string>, context: ArgumentContext): Check<null> {
  const file = resolveSkillModule(program, value.text, context.cwd, context.scopes.context.image, marks);
  if (!file.ok) return file;
  const decision = decideArgumentPath('read', file.value, context);
  return decision.allow ? { ok: true, value: null } : no(decision.code, `${program}: ${value.written}: ${decision.reason}`);
}

function checkHardlinkSource(program: string, value: ParsedValue, context: ArgumentContext): Check<null> {
  const decision = decideArgumentPath('write', absoluteFrom(context.cwd, value.text), context);
  if (decision.allow) return { ok: true, value: null };
  if (decision.code !== 'ZB_POLICY_PATH_OUTSIDE_SCOPE') return no(decision.code, `${program}: ${decision.reason}`);
  return no(
    'ZB_POLICY_PATH_HARDLINK',
    `${program}: a hard link to ${JSON.stringify(value.text)} is denied: it is outside the write scopes, and a second name for it inside them would make it writable. Fix: copy the file instead (cp without -l).`,
  );
}

/**
 * Where a new link may live: inside the destination when it is a directory, else
 * beside it. A destination that is a link to a directory is entered by ln and cp
 * unless -n/-T say otherwise, so both places are checked then.
 */
function linkDirectories(destination: string): readonly string[] {
  try {
    if (lstatSync(destination).isDirectory()) return [destination];
  } catch {
    // it does not exist yet: the link takes its name
    return [path.dirname(destination)];
  }
  // Relative to a link to a directory, ".." is taken from where the link points (path-resolve.ts), as the kernel will.
  return isDirectory(destination) ? [destination, path.dirname(destination)] : [path.dirname(destination)];
}

function checkSymlinkTarget(program: string, value: ParsedValue, parsed: ParsedArguments, context: ArgumentContext): Check<null> {
  const destination = parsed.values.find((v) => v.destination === true);
  const directories = destination === undefined ? [context.cwd] : linkDirectories(absoluteFrom(context.cwd, destination.text));
  for (const directory of directories) {
    const decision = decideArgumentPath('read', absoluteFrom(directory, value.text), context);
    if (!decision.allow) return no(decision.code, `${program}: a symbolic link to ${JSON.stringify(value.text)} (from ${directory}) is denied: ${decision.reason}`);
  }
  return { ok: true, value: null };
}

function checkUrl(program: string, text: string, net: readonly NetRule[]): Check<null> {
  // Only the plain lower-case spelling: curl globs [] and {}, and guesses a scheme for a bare host.
  if (!/^https?:\/\/[^\s[\]{}\\]+$/.test(text)) {
    return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: ${JSON.stringify(text)} is not allowed: URLs must start with http:// or https:// (lower case) and contain no [ ] { } or spaces.`);
  }
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') {
      // Closed world (issue 24): the URL's host and port must be in permissions.net.allow, as the sandbox's proxy decides it.
      const decided = decideNetUrl(net, text);
      return decided.allow ? { ok: true, value: null } : no(decided.code, `${program}: ${decided.reason}`);
    }
  } catch {
    // falls through to the denial
  }
  return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: ${JSON.stringify(text)} is not a valid http(s) URL.`);
}

function checkShape(program: string, value: ParsedValue, ok: boolean, describe: string): Check<null> {
  return ok ? { ok: true, value: null } : no('ZB_POLICY_SHELL_ARGUMENT', `${program}: ${JSON.stringify(value.text)} (${value.written}) must be ${describe}.`);
}

function checkEvery(program: string, kinds: readonly ValueKind[], value: ParsedValue, parsed: ParsedArguments, context: ArgumentContext): Check<null> {
  for (const kind of kinds) {
    const checked = checkKind(program, kind, value, parsed, context);
    if (!checked.ok) return checked;
  }
  return { ok: true, value: null };
}

/** The first kind that passes decides; when none does, the last denial is the reason. */
function checkFirstPassing(program: string, kinds: readonly ValueKind[], value: ParsedValue, parsed: ParsedArguments, context: ArgumentContext): Check<null> {
  let last: Check<null> = no('ZB_POLICY_SHELL_ARGUMENT', `${program}: ${JSON.stringify(value.text)} (${value.written}) matches no allowed kind.`);
  for (const kind of kinds) {
    last = checkKind(program, kind, value, parsed, context);
    if (last.ok) return last;
  }
  return last;
}

function checkKind(program: string, kind: ValueKind, value: ParsedValue, parsed: ParsedArguments, context: ArgumentContext): Check<null> {
  if (typeof kind === 'object') {
    if ('choices' in kind) return checkShape(program, value, kind.choices.includes(value.text), `one of ${kind.choices.join(', ')}`);
    if ('byMark' in kind) return checkKind(program, kind.byMark.find(([mark]) => parsed.marks.has(mark))?.[1] ?? kind.otherwise, value, parsed, context);
    if ('allOf' in kind) return checkEvery(program, kind.allOf, value, parsed, context);
    if ('anyOf' in kind) return checkFirstPassing(program, kind.anyOf, value, parsed, context);
    const shaped = checkShape(program, value, kind.matches.test(value.text), kind.describe);
    if (!shaped.ok || kind.path === undefined) return shaped;
    const placed = checkPath(program, kind.path, value, parsed.marks, context);
    if (!placed.ok || kind.mustExist !== true || lstatSync(absoluteFrom(context.cwd, value.text), { throwIfNoEntry: false }) !== undefined) return placed;
    return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: ${JSON.stringify(value.text)} does not exist; name an existing file (${kind.describe}).`);
  }
  switch (kind) {
    case 'read':
    case 'write':
      return checkPath(program, kind, value, parsed.marks, context);
    case 'hardlink-source':
      return checkHardlinkSource(program, value, context);
    case 'symlink-target':
      return checkSymlinkTarget(program, value, parsed, context);
    case 'pattern':
    case 'literal':
      return { ok: true, value: null };
    case 'number':
      return checkShape(program, value, /^[+-]?[0-9]+$/.test(value.text), 'a whole number');
    case 'size':
      return checkShape(program, value, SIZE.test(value.text), 'a number with an optional unit (10K, 1M, 2GiB)');
    case 'module-name':
      return checkShape(program, value, MODULE.test(value.text), 'a dotted module name (pkg.module)');
    case 'skill-module':
      return checkSkillModule(program, value, parsed.marks, context);
    case 'working-directory':
      // Decided, and made the working directory of every other check, by moveWorkingDirectory before the values are checked.
      return { ok: true, value: null };
    case 'url':
      return checkUrl(program, value.text, context.net ?? []);
    case 'sed-script':
      return checkSedScript(program, value.text);
    case 'awk-program':
      return checkAwkProgram(program, value.text);
    case 'jq-filter':
      return checkJqFilter(program, value.text);
  }
}

/**
 * The directory the program works from once it has changed into each
 * 'working-directory' value in turn (git -C A -C B is A/B): each an existing
 * directory in the read scopes, canonicalised, like a cd. Every path check and
 * named check then runs from there.
 */
export function moveWorkingDirectory(program: string, parsed: ParsedArguments, cwd: string, context: Pick<ArgumentContext, 'scopes' | 'notes' | 'confined'>): Check<string> {
  let directory = cwd;
  for (const value of parsed.values) {
    if (value.kind !== 'working-directory') continue;
    if (value.text === '') return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: ${value.written} needs a directory; leave it out to work from ${directory}.`);
    const decision = decideArgumentPath('read', absoluteFrom(directory, value.text), context);
    if (!decision.allow) return no(decision.code, `${program}: ${value.written} ${JSON.stringify(value.text)}: ${decision.reason}`);
    const resolved = resolveCanonicalPath(decision.canonicalPath, { withStats: true });
    if (!resolved.ok || resolved.stats?.isDirectory !== true)
      return no('ZB_POLICY_SHELL_ARGUMENT', `${program}: ${value.written} ${JSON.stringify(value.text)}: ${decision.canonicalPath} is not an existing directory.`);
    directory = decision.canonicalPath;
  }
  return { ok: true, value: directory };
}

/** Checks every value the parser classified, in argument order; the first denial wins. */
export function checkArgumentValues(program: string, parsed: ParsedArguments, context: ArgumentContext): Check<null> {
  for (const value of parsed.values) {
    const checked =
      context.found !== undefined && value.text === FOUND_FILE
        ? checkFoundFiles(program, value.kind, value, parsed.marks, context, context.found)
        : checkKind(program, value.kind, value, parsed, context);
    if (!checked.ok) return checked;
  }
  return { ok: true, value: null };
}

/** True when something exists at `absolute` and is a directory (following links, as the programs do). */
export function isDirectory(absolute: string): boolean {
  try {
    return statSync(absolute).isDirectory();
  } catch {
    return false;
  }
}
