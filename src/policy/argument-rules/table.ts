// The built-in argument rules, one family a file. A program listed here runs
// only with arguments its rule allows; one not listed may run only confined.
import type { ProgramRule } from './rule-format.js';
import { DEV_RULES } from './table-dev.js';
import { FILE_RULES } from './table-files.js';
import { GIT_RULES } from './table-git.js';
import { NET_RULES } from './table-net.js';
import { TEXT_RULES } from './table-text.js';

function merge(...families: (readonly (readonly [string, ProgramRule])[])[]): ReadonlyMap<string, ProgramRule> {
  const rules = new Map<string, ProgramRule>();
  for (const family of families) {
    for (const [name, rule] of family) {
      // A program in two families would have whichever rule came last: a mistake worth stopping for.
      if (rules.has(name)) throw new Error(`argument rules: ${name} is listed twice`);
      rules.set(name, rule);
    }
  }
  return rules;
}

export const BUILT_IN_RULES: ReadonlyMap<string, ProgramRule> = merge(FILE_RULES, TEXT_RULES, GIT_RULES, DEV_RULES, NET_RULES);
