// A program is judged by what runs, not by the name it is written as (issue 27 §6,
// adv27). The never-allowed list, the unchecked runners, the wrappers and the
// argument rules are keyed by names, but one file answers to many: ex, view and
// editor are vim.basic, pager is less, x86_64 is setarch, slogin is ssh. Each known
// name is resolved on the fixed PATH to its canonical file; a name written for a
// file that zotbox knows under another name takes that name's denial, or, when the
// written name has no rule of its own, is denied (closed world: never let through
// unchecked). Canonical files of one family (vim.basic, vim.tiny) count as one.
import type { ProgramRule } from './argument-rules/rule-format.js';
import { builtInRuleOf } from './argument-rules/check-arguments.js';
import { BUILT_IN_RULES } from './argument-rules/table.js';
import { ALWAYS_DENIED } from './never-allowed.js';
import { findProgram } from './program-lookup.js';
import { deny as no, type Check } from './shell-check.js';
import { UNCHECKED_RUNNERS, WRAPPERS } from './wrapper-rules.js';

/** Canonical file names of one program under a build-specific name: they take the family's rules (interpreters: INTERPRETER_ALIASES). */
const FAMILIES: readonly (readonly [RegExp, string])[] = [
  [/^vim\.[a-z0-9]+$/, 'vim'],
  [/^nvim\.[a-z0-9]+$/, 'nvim'],
  [/^less\.[a-z0-9]+$/, 'less'],
];

/** Files that run the applet their name says (busybox, toybox, coreutils built as one binary, uutils). */
const MULTI_CALL_FILES: ReadonlySet<string> = new Set(['busybox', 'toybox', 'coreutils']);

/** Every name zotbox decides by: each has a denial, a wrapper rule or an argument rule. */
function knownNames(): readonly string[] {
  return [...ALWAYS_DENIED.keys(), ...UNCHECKED_RUNNERS.keys(), ...WRAPPERS.keys(), ...BUILT_IN_RULES.keys()];
}

/**
 * Canonical file -> the known names that run it, per search path. Built once: the fixed PATH is system
 * directories, which do not change under a run; a different search path gets an index of its own.
 */
const indexes = new Map<string, ReadonlyMap<string, readonly string[]>>();

function indexFor(searchPath: readonly string[]): ReadonlyMap<string, readonly string[]> {
  const key = searchPath.join('\u0000');
  const cached = indexes.get(key);
  if (cached !== undefined) return cached;
  const index = new Map<string, string[]>();
  for (const name of new Set(knownNames())) {
    const found = findProgram(name, searchPath);
    if (found === undefined) continue;
    index.set(found.program, [...(index.get(found.program) ?? []), name]);
  }
  indexes.set(key, index);
  return index;
}

/** The known names of a canonical file: those resolving to it, and its family's name. */
export function knownNamesOf(program: string, searchPath: readonly string[]): readonly string[] {
  const names = new Set(indexFor(searchPath).get(program) ?? []);
  const file = program.slice(program.lastIndexOf('/') + 1);
  if (knownNames().includes(file)) names.add(file);
  for (const [pattern, family] of FAMILIES) if (pattern.test(file)) names.add(family);
  return [...names];
}

/**
 * Whether `written` may be decided under its own name, given the canonical file it runs. Returns the argument
 * rules that apply on top of the written name's own (other names of the same file with a rule of their own),
 * so the stricter of them decides: each must allow the arguments.
 */
export function checkProgramIdentity(written: string, program: string, searchPath: readonly string[]): Check<readonly (readonly [string, ProgramRule])[]> {
  // A multi-call binary is each of its applets, chosen by the name it runs as (the written name: argv[0], or the
  // file it is found at inside the sandbox): ls linked to busybox is ls, and is judged as ls alone (adv27b).
  // The binary under its own name is denied before this, as an unchecked runner.
  if (MULTI_CALL_FILES.has(program.slice(program.lastIndexOf('/') + 1))) return { ok: true, value: [] };
  const others = knownNamesOf(program, searchPath).filter((name) => name !== written);
  const is = `${written} is ${program}`;
  for (const other of others) {
    const never = ALWAYS_DENIED.get(other);
    if (never !== undefined) return no('ZB_POLICY_SHELL_NOT_ALLOWED', `${is}, which is ${other}: ${other} is never allowed: it ${never}.`);
    const runner = UNCHECKED_RUNNERS.get(other);
    if (runner !== undefined) return no('ZB_POLICY_SHELL_NOT_ALLOWED', `${is}, which is ${other}: ${other} is never allowed: it ${runner}, so what it runs cannot be checked. Run the command itself.`);
    if (WRAPPERS.has(other)) return no('ZB_POLICY_SHELL_NOT_ALLOWED', `${is}, the wrapper ${other}: write ${other}, whose rule checks what it runs.`);
  }
  const ruled = others.flatMap((name): (readonly [string, ProgramRule])[] => {
    const rule = builtInRuleOf(name);
    return rule === undefined || rule === builtInRuleOf(written) ? [] : [[name, rule]];
  });
  if (ruled.length > 0 && builtInRuleOf(written) === undefined) {
    const [name] = ruled[0]!;
    return no(
      'ZB_POLICY_SHELL_NOT_ALLOWED',
      `${is}: ${name}'s argument rules apply to it, and they are kept under the name ${name}, which the command does not use. Fix: write ${name} instead of ${written} (and allowlist ${name}).`,
    );
  }
  return { ok: true, value: ruled };
}
