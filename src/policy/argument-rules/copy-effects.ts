// What cp writes and links beyond the paths it names (issue 10 item 4: links
// cannot widen permissions). Into an existing directory it writes DIR/NAME for
// each source, through any link or hard link already at that name, and a
// recursive copy writes through the links already in the target tree; with
// -l and -L it hard-links what the links in its sources point to. Each of
// these is decided as a write. Named check of the cp rule; never throws.
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { absoluteFrom } from '../path-resolve.js';
import { deny as no, type Check } from '../shell-check.js';
import { checkLinksInTree, MAX_WALKED_ENTRIES } from './link-walk.js';
import type { ParsedArguments } from './parse-arguments.js';
import { decideArgumentPath, FOLLOWS_LINKS, isDirectory, type ArgumentContext } from './value-kinds.js';

/** Marks the cp rule's options set: they change which names cp writes or links. */
export const COPIES_RECURSIVELY = 'copies-recursively';
export const NO_TARGET_DIRECTORY = 'no-target-directory';
export const KEEPS_SOURCE_PARENTS = 'keeps-source-parents';
export const MAKES_HARD_LINKS = 'makes-hard-links';

/** The names cp writes: the destination itself, or one name per source inside it. */
function copyTargets(parsed: ParsedArguments, cwd: string): readonly string[] {
  const destination = absoluteFrom(cwd, parsed.positionals.at(-1)!);
  if (parsed.marks.has(NO_TARGET_DIRECTORY) || !isDirectory(destination)) return [destination];
  const directory = destination.replace(/\/+$/, '');
  return parsed.positionals.slice(0, -1).map((source) => {
    // --parents keeps the source as written under the directory; otherwise its last name ("dir/." is the directory itself).
    if (parsed.marks.has(KEEPS_SOURCE_PARENTS)) return `${directory}/${source.replace(/^\/+/, '')}`;
    return `${directory}/${path.basename(source)}`;
  });
}

function isRealDirectory(absolute: string): boolean {
  try {
    return lstatSync(absolute).isDirectory();
  } catch {
    return false; // not there yet: cp creates it, with nothing inside to write through
  }
}

function checkTargets(name: string, parsed: ParsedArguments, context: ArgumentContext): Check<null> {
  for (const target of copyTargets(parsed, context.cwd)) {
    const decision = decideArgumentPath('write', target, context);
    if (!decision.allow) return no(decision.code, `${name} would write ${target} (through any link or hard link already there): ${decision.reason}`);
    if (!parsed.marks.has(COPIES_RECURSIVELY) || !isRealDirectory(decision.canonicalPath)) continue;
    const walked = checkLinksInTree(decision.canonicalPath, 'write', context.scopes, MAX_WALKED_ENTRIES, context.confined === true);
    if (!walked.ok) return no(walked.code, `${name} would copy into ${target}, writing through the links already in it: ${walked.reason}`);
  }
  return { ok: true, value: null };
}

/** cp -lL: each link in a source tree gives its target a second name, which needs the target inside the write scopes. */
function checkLinkedTrees(name: string, parsed: ParsedArguments, context: ArgumentContext): Check<null> {
  if (!parsed.marks.has(MAKES_HARD_LINKS) || !parsed.marks.has(FOLLOWS_LINKS)) return { ok: true, value: null };
  for (const source of parsed.positionals.slice(0, -1)) {
    const decision = decideArgumentPath('write', absoluteFrom(context.cwd, source), context);
    // Already decided as a hard-link source (value-kinds.ts); what is new here is its tree.
    if (!decision.allow) return no(decision.code, `${name}: ${decision.reason}`);
    const walked = checkLinksInTree(decision.canonicalPath, 'write', context.scopes, MAX_WALKED_ENTRIES, context.confined === true);
    if (!walked.ok) return no(walked.code, `${name} would hard-link what the links in ${source} point to: ${walked.reason}`);
  }
  return { ok: true, value: null };
}

export function checkCopyEffects(name: string, parsed: ParsedArguments, context: ArgumentContext): Check<null> {
  if (parsed.positionals.length < 2) return { ok: true, value: null };
  const linked = checkLinkedTrees(name, parsed, context);
  if (!linked.ok) return linked;
  return checkTargets(name, parsed, context);
}
