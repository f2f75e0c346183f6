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
 * What a call must pass to match: undefined when its tool or code already
 * differs (or it lacks a field the matcher gives), else the pattern requests that
 * must all match (none: it matches).
 */
export function callPatternRequests(call: ObservedCall, matcher: CallMatcher, workspace: string): PatternRequest[] | undefined {
  if (matcher.tool !== undefined && call.tool !== matcher.tool) return undefined;
  if (matcher.code !== undefined && call.code !== matcher.code) return undefined;
  const requests: PatternRequest[] = [];
  if (matcher.command !== undefined) {
    const command = call.input['command'];
    if (typeof command !== 'string') return undefined;
    requests.push({ kind: 'regex', source: matcher.command, subjects: [command], what: 'the command of a bash call' });
  }
  if (matcher.path !== undefined) {
    const paths = callPaths(call, workspace);
    if (paths.length === 0) return undefined;
    requests.push({ kind: 'glob', source: matcher.path, subjects: paths, what: 'the path of a call' });
  }
  return requests;
}

/** The paths a call can be matched by: as the agent wrote it, and the gate's canonical path (relative to the workspace when inside it). */
function callPaths(call: ObservedCall, workspace: string): string[] {
  const paths: string[] = [];
  const written = call.input['path'];
  if (typeof written === 'string') paths.push(written.startsWith('./') ? written.slice(2) : written);
  if (call.canonicalPath !== undefined) {
    const relative = path.relative(workspace, call.canonicalPath);
    paths.push(relative === '' ? '.' : !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : call.canonicalPath);
  }
  return paths;
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
