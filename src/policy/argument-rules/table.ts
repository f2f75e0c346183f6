// The built-in argument rules, one family a file. A program listed here runs
// only with arguments its rule allows; one not listed may run only confined.
import { RUNS_PROJECT_CODE_MARK } from './argument-effects.js';
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

/**
 * What runs code from files the agent can write (scripts, makefiles, package
 * scripts, tests, build scripts): no argument rule can check that code, so, like a
 * program without a rule, it runs only confined. `true`: every use of the program;
 * a list: those subcommands.
 *
 * Toolchains whose every use reads project configuration that can name a program,
 * plugin or toolchain to run are `true` (adv27d): cargo reads .cargo/config.toml in
 * the directory and its parents ([alias] makes `cargo fmt` a `cargo run`, build.rustc
 * a wrapper) and rustup's proxy reads rust-toolchain.toml (`path =` any directory);
 * go reads go.mod's and go.work's toolchain line and go.env; deno reads deno.json
 * (lint plugins run with read access); bun reads bunfig.toml (preload); pip is Python,
 * which imports what its site-packages' .pth files name at every start.
 */
const RUNS_PROJECT_CODE: ReadonlyMap<string, true | readonly string[]> = new Map<string, true | readonly string[]>([
  ...['python', 'python3', 'node', 'perl', 'ruby', 'php', 'lua', 'bash', 'sh', 'dash', 'zsh', 'ksh', 'fish', 'make'].map((name) => [name, true] as const),
  ...['go', 'cargo', 'deno', 'bun', 'pip', 'pip3'].map((name) => [name, true] as const),
  ['npm', ['run', 'run-script', 'test', 't', 'start', 'install', 'ci']],
]);

function markRunsProjectCode(name: string, rule: ProgramRule): ProgramRule {
  const which = RUNS_PROJECT_CODE.get(name);
  if (which === undefined) return rule;
  const marked = (r: ProgramRule): ProgramRule => ({ ...r, marks: [...(r.marks ?? []), RUNS_PROJECT_CODE_MARK] });
  // Every use: a mark on the program's own rule holds for each of its subcommands (parse-arguments.ts merges them).
  if (which === true) return marked(rule);
  const subcommands = Object.fromEntries(Object.entries(rule.subcommands ?? {}).map(([sub, subRule]) => [sub, which.includes(sub) ? marked(subRule) : subRule]));
  return { ...rule, subcommands };
}

export const BUILT_IN_RULES: ReadonlyMap<string, ProgramRule> = new Map(
  [...merge(FILE_RULES, TEXT_RULES, GIT_RULES, DEV_RULES, NET_RULES)].map(([name, rule]) => [name, markRunsProjectCode(name, rule)]),
);
