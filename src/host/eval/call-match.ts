// Whether a tool call matches an expectation's matcher (tool, path glob,
// command pattern, denial code). Pure: the call is what the run's events said.
// A field the matcher gives must match; a call without that field (a bash call
// has no path) never matches it. The tool and code are compared here; the
// command regex and path glob are the suite's patterns, matched off the main
// thread within a bound (pattern-host.ts), so this only says what to match.
import path from 'node:path';
import type { PatternRequest } from './pattern-host.js';
import type { CallMatcher } from './suite-schema.js';
import type { ObservedCall } from './run-record.js';

/**
 * One field a matcher gives (command or path), as a call fills it: the pattern to
 * match against what the call's record holds, and, when that record cannot hold
 * everything the field could match, why (the call may match although the pattern
 * matches none of it: "cannot tell", never "no").
 */
export interface FieldCheck {
  readonly request: PatternRequest | undefined;
  readonly uncertain: string | undefined;
}

/**
 * What a call must pass to match: undefined when its tool or code already differs
 * (or it lacks a field the matcher gives), else one check per field the matcher
 * gives, all of which must match (none: it matches).
 */
export function callPatternRequests(call: ObservedCall, matcher: CallMatcher, workspace: string): FieldCheck[] | undefined {
  if (matcher.tool !== undefined && call.tool !== matcher.tool) return undefined;
  if (matcher.code !== undefined && call.code !== matcher.code) return undefined;
  const checks: FieldCheck[] = [];
  if (matcher.command !== undefined) {
    const commands = callCommands(call);
    if (commands === undefined) return undefined;
    checks.push({
      request: commands.subjects.length === 0 ? undefined : { kind: 'regex', source: matcher.command, subjects: commands.subjects, what: 'the command of a bash call' },
      uncertain: commands.uncertain,
    });
  }
  if (matcher.path !== undefined) {
    const paths = callPaths(call, workspace);
    if (paths.subjects.length === 0 && paths.uncertain === undefined) return undefined;
    checks.push({
      request: paths.subjects.length === 0 ? undefined : { kind: 'glob', source: matcher.path, subjects: paths.subjects, what: 'the path of a call' },
      uncertain: paths.uncertain,
    });
  }
  return checks;
}

/**
 * What a command regex is searched in: the command as the agent typed it, and each
 * command the gate parsed from it, its argv joined by spaces (`cat 'secret'.txt`
 * runs `cat secret.txt`). Undefined for a call that is not a command. Closed world,
 * as for paths: a bash call the gate did not read whole (not parsed, or a program
 * that runs code from files or has no argument rule, whose `paths_complete` is false)
 * may have run any command, so one the pattern does not match is "cannot tell".
 */
function callCommands(call: ObservedCall): { subjects: string[]; uncertain: string | undefined } | undefined {
  const typed = call.input['command'];
  if (call.tool !== 'bash' && typeof typed !== 'string') return undefined;
  const subjects = typeof typed === 'string' ? [typed] : [];
  if (call.argv !== undefined) subjects.push(...call.argv.map((argv) => argv.join(' ')));
  let uncertain: string | undefined;
  if (call.tool === 'bash' && call.argv === undefined) uncertain = 'the gate did not parse this command into the commands it runs, so what it runs cannot be told from how it was typed';
  else if (call.tool === 'bash' && call.pathsComplete !== true) {
    uncertain = `the gate did not read everything this bash call runs (${bashUnknownWhy(call)}), so the commands it ran cannot all be told from how it was typed`;
  }
  return { subjects, uncertain };
}

/**
 * The paths a call can be matched by, each relative to the workspace when inside it,
 * else absolute: the path as the agent wrote it, and normalised by its spelling alone
 * (`..`, `//`, a trailing `/`); the canonical path the gate resolved; and for bash, every
 * path the gate decided for its commands. `uncertain` says why the call may name a
 * path that is not among them: a file tool's path the gate never resolved
 * (`/proc/self/root/etc/passwd`, denied before resolving), a bash call whose paths
 * the gate did not all decide.
 */
function callPaths(call: ObservedCall, workspace: string): { subjects: string[]; uncertain: string | undefined } {
  const subjects = new Set<string>();
  const shown = (absolute: string) => {
    const relative = path.relative(workspace, absolute);
    return relative === '' ? '.' : !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : absolute;
  };
  const written = call.input['path'];
  if (typeof written === 'string' && written !== '') {
    subjects.add(written.startsWith('./') ? written.slice(2) : written);
    subjects.add(shown(path.posix.resolve(workspace, written)));
  }
  if (call.canonicalPath !== undefined) subjects.add(shown(call.canonicalPath));
  for (const decided of call.paths ?? []) subjects.add(shown(decided));
  let uncertain: string | undefined;
  if (call.tool === 'bash') {
    if (call.pathsComplete !== true) uncertain = `the gate did not decide every path this bash call names (${bashUnknownWhy(call)}), so the files it names cannot all be told`;
  } else if (typeof written === 'string' && call.canonicalPath === undefined) {
    uncertain = `the gate ${call.allowed === false ? `denied it (${call.code ?? 'no code'})` : call.allowed === true ? 'allowed it' : 'never decided it'} without resolving its path, so which file ${JSON.stringify(written)} names cannot be told`;
  }
  return { subjects: [...subjects], uncertain };
}

function bashUnknownWhy(call: ObservedCall): string {
  if (call.allowed === undefined) return 'it was never decided';
  if (!call.allowed) return 'it was denied before all its commands were decided';
  return 'bash in ask mode, a program without an argument rule, or one that runs code from files';
}

/** `**` spans segments, `*` and `?` stay within one; everything else is literal. */
export function globMatches(glob: string, candidate: string): boolean {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const character = glob.charAt(i);
    if (character === '*' && glob.charAt(i + 1) === '*') {
      // "**/" also matches no folder at all: "**/a.txt" matches "a.txt".
      if (glob.charAt(i + 2) === '/') {
        source += '(?:.*/)?';
        i += 2;
      } else {
        source += '.*';
        i += 1;
      }
    } else if (character === '*') source += '[^/]*';
    else if (character === '?') source += '[^/]';
    else source += character.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'); // the syntax characters only: in Unicode mode, escaping any other is an error
  }
  return new RegExp(`^${source}$`, 'su').test(candidate);
}

/** How a call is described in a reason: `bash "rm -rf /"`, `read src/a.ts`. */
export function describeCall(call: ObservedCall): string {
  const command = call.input['command'];
  const target = call.input['path'];
  if (typeof command === 'string') return `${call.tool} ${JSON.stringify(command.length > 120 ? `${command.slice(0, 120)}…` : command)}`;
  if (typeof target === 'string') return `${call.tool} ${JSON.stringify(target)}`;
  return call.tool;
}

export function describeMatcher(matcher: CallMatcher): string {
  const parts = [matcher.tool ?? 'any tool'];
  if (matcher.path !== undefined) parts.push(`path ${JSON.stringify(matcher.path)}`);
  if (matcher.command !== undefined) parts.push(`command /${matcher.command}/`);
  if (matcher.code !== undefined) parts.push(`code ${matcher.code}`);
  return parts.join(', ');
}
