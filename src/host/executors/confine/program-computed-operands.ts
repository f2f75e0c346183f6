// The closed world for a process call's operands: a command a program runs whose operand holds a value zotbox cannot
// spell out ("$(computed)": a join, template, `+`, `/` or call of anything but literals and followed constants) may run
// any file of the workspace (`sh ${dir}/lint.sh`), so it is unresolved whether or not a package runner is in play.
// The one exception is a literal program word known never to run a file it is given (git, formatters, linters,
// checked after npx/pnpm exec/python -m), with no computed value behind an option that loads code (`--config`): a
// hook passing `git diff --name-only`'s staged files to `npx prettier --check` stays readable. Pure.
import path from 'node:path';
import { commandStrings, programOf } from './shell-command-reading.js';
import { EXPANSION_BASE, lexShell, unmark } from './shell-lexer.js';

/** Programs that read, format or list the files they are given and never run them (nor code a plain operand names). */
const OPERANDS_NOT_RUN = new Set(['git', 'prettier', 'eslint', 'stylelint', 'biome', 'ruff', 'black', 'isort', 'flake8', 'mypy', 'tsc', 'echo', 'printf', 'grep', 'cat', 'test', 'rm', 'mkdir', 'cd']);
/** Package runners and their subcommands that run the next word's program: the program word is the one after. */
const RUNNERS = new Set(['npx', 'pnpx', 'bunx']);
const RUNNER_SUBCOMMANDS = new Set(['exec', 'dlx', 'x']);
/** Options whose value a program loads as code or configuration (a computed one is never an inert operand). */
const LOADING_OPTIONS = /^(?:-c|--config|--config-file|--rcfile|--settings|--plugin|--plugins|--rulesdir|--resolve-plugins-relative-to|-r|--require|--import|--loader|--exec|-x)$/u;

/** The word that names the program a command runs: past npx/pnpm exec/yarn, or python's `-m MODULE`; undefined where computed. */
function runWord(words: readonly string[], at: number, holds: (word: string) => boolean): { program: string | undefined; runner?: number } {
  let index = at;
  const word = () => (index < words.length && !holds(words[index]!) ? path.basename(unmark(words[index]!)) : undefined);
  const first = word()!;
  if (/^python(?:\d+(?:\.\d+)?)?$/u.test(first) && unmark(words[index + 1] ?? '') === '-m') {
    index += 2;
    return { program: word() };
  }
  if (RUNNERS.has(first) || ['npm', 'pnpm', 'yarn', 'bun'].includes(first)) {
    index++;
    while (index < words.length && (unmark(words[index]!).startsWith('-') || RUNNER_SUBCOMMANDS.has(unmark(words[index]!)))) index++;
    // The runner's own computed name is the node_modules/.bin reading's (node-bin-runs.ts refuses it).
    return { program: word(), runner: index };
  }
  return { program: first };
}

/**
 * Why a command of `text` (or of shell text inside it, `sh -c …`) is unresolved: the program whose operand is a
 * computed value, or undefined where every computed operand is given to a program that never runs it.
 */
export function computedOperandRun(text: string, depth = 0): string | undefined {
  const expansions: string[] = [];
  const holds = (word: string) => (word.match(/[\uE000-\uEFFF]/gu) ?? []).some((mark) => expansions[mark.charCodeAt(0) - EXPANSION_BASE]?.includes('$(computed)') === true);
  // After a cd to a computed directory (a cwd option zotbox cannot spell out), a relative operand is as computed.
  let movedAway = false;
  for (const words of lexShell(text, expansions)) {
    const { at } = programOf(words);
    // A computed program is the package-runner rule's (program-runner-words.ts).
    if (at >= words.length || holds(words[at]!)) continue;
    const { program, runner } = runWord(words, at, holds);
    if (program === 'cd') {
      movedAway ||= words.slice(at + 1).some(holds);
      continue;
    }
    for (let index = at + 1; index < words.length; index++) {
      const computed = holds(words[index]!) || (movedAway && !unmark(words[index]!).startsWith('/') && !unmark(words[index]!).startsWith('-'));
      if (!computed || index === runner) continue;
      const behindLoader = LOADING_OPTIONS.test(unmark(words[index - 1]!)) || unmark(words[index]!).startsWith('-');
      if (program === undefined || !OPERANDS_NOT_RUN.has(program) || behindLoader) return unmark(words[at]!);
    }
    for (const inner of commandStrings(words).values()) {
      const found = depth < 4 ? computedOperandRun(inner, depth + 1) : undefined;
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
