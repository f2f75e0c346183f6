// Which language reads a file a shell text runs (tool-file-references.ts): an interpreter's operand
// (`python3 tools/check.py`, `node tools/check`, `npx tsx tools/check.ts`) is program code in that interpreter's
// grammar, whatever its name and with or without a #! line; only a file a shell runs is a shell script. A file of
// program code is read for what it imports (interpreter-operands.ts codeNames), never as a shell script, whose
// reading would find none of its imports. Pure, no I/O. Read by pattern: a command it cannot split is left to the
// shell reading, which still protects every word it names.

import { interpreterReading, programLanguage } from './interpreter-operands.js';
import type { ProgramLanguage } from './inline-program-runs.js';
import { type TypescriptRun, typescriptRun } from './typescript-runners.js';

/** Names of program code by extension: Python, JavaScript and TypeScript, Perl, Ruby (run by their interpreter whoever names them). */
export const PROGRAM_FILE = /\.(pyw?|[cm]?[jt]sx?|pl|pm|rb)$/iu;

/** The words of one simple command, quotes removed (a word with an expansion kept as written: it names no operand). */
function commandsOf(text: string): string[][] {
  return text
    .split(/\n|;|&&|\|\||\||&|\(|\)|`|\$\(/u)
    .map((command) => [...command.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/gu)].map((match) => match[1] ?? match[2] ?? match[3]!))
    .filter((words) => words.length > 0);
}

/**
 * The operands of `text`'s commands that an interpreter runs as its program, each with that interpreter's language:
 * as written, relative to where the command runs.
 */
export function interpreterOperands(text: string): ReadonlyMap<string, ProgramLanguage> {
  return new Map(operandsOf(text).map(({ operand, language }) => [operand, language]));
}

/** The operands of `text`'s commands that a TypeScript runner runs (typescript-runners.ts), with what its command names. */
export function typescriptOperands(text: string): ReadonlyMap<string, TypescriptRun> {
  const runs = new Map<string, TypescriptRun>();
  for (const { operand, words, at, index } of operandsOf(text)) {
    const run = typescriptRun(words, at, index);
    if (run !== undefined) runs.set(operand, run);
  }
  return runs;
}

/** The operands of `text`'s commands that bun runs: bun reads a `.js` file as JSX (its default loader for `.js`). */
export function jsxOperands(text: string): ReadonlySet<string> {
  return new Set(
    operandsOf(text)
      .filter(({ words, at }) => (words[at] ?? '').split('/').pop() === 'bun')
      .map(({ operand }) => operand),
  );
}

/**
 * Each interpreter's operand in `text`: as written (normalised), its language, its command's words, the program's and
 * the operand's index. An interpreter is looked for at every word of a command, behind any wrapper (`nice -n 5`,
 * `timeout 60`, `exec -a NAME`, `/usr/bin/env`, `if`), and in shell text a word holds (`sh -c '…'`) (review s04a).
 */
function operandsOf(text: string, depth = 0): { operand: string; language: ProgramLanguage; words: string[]; at: number; index: number }[] {
  const found: { operand: string; language: ProgramLanguage; words: string[]; at: number; index: number }[] = [];
  for (const words of commandsOf(text)) {
    for (let at = 0; at < words.length; at++) {
      const program = words[at]!.split('/').pop()!;
      const language = programLanguage(program);
      if (language === undefined) {
        // Shell text in a word (`sh -c 'node x.js'`, `bash -lc "…"`): read as commands too.
        if (depth < 2 && /\s/u.test(words[at]!)) found.push(...operandsOf(words[at]!, depth + 1));
        continue;
      }
      const operand = interpreterReading(program, words.slice(at + 1)).operand;
      if (operand !== undefined) found.push({ operand: normal(words[at + 1 + operand]!), language, words, at, index: at + 1 + operand });
    }
  }
  return found;
}

/** The TypeScript run `word` (a name a shell text runs, as the reader resolved it) is, if a TypeScript runner's operand. */
export function operandRun(runs: ReadonlyMap<string, TypescriptRun>, word: string): TypescriptRun | undefined {
  const written = normal(word);
  for (const [operand, run] of runs) if (written === operand || written.endsWith(`/${operand}`)) return run;
  return undefined;
}

/** Whether `word` (a name a shell text runs, as the reader resolved it) is one of `operands`. */
export function isOperand(operands: ReadonlySet<string>, word: string): boolean {
  const written = normal(word);
  return [...operands].some((operand) => written === operand || written.endsWith(`/${operand}`));
}

/** The language `word` (a name a shell text runs, as the reader resolved it) is run by, if an interpreter's operand. */
export function operandLanguage(operands: ReadonlyMap<string, ProgramLanguage>, word: string): ProgramLanguage | undefined {
  const written = normal(word);
  for (const [operand, language] of operands) if (written === operand || written.endsWith(`/${operand}`)) return language;
  return undefined;
}

const normal = (name: string) => name.replace(/^(\.\/)+/u, '').replace(/\/+$/u, '');
