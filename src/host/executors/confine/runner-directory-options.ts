// The directories a package runner's own options move it to for its project configuration, as a `cd` does: npm's
// `--prefix DIR` / `--prefix=DIR` / `-C DIR` (npm 7+: DIR becomes the project, and npm reads DIR/.npmrc), the same
// options of `npx` and `npm exec`, a `npm_config_prefix=DIR` assignment, and bun's `--cwd DIR`. Pure reading of words
// (no I/O). Closed world: a DIR zotbox cannot spell out (an expansion, a pattern) is reported, never dropped.

import { commandStrings } from './shell-command-reading.js';
import { EXPANSION_BASE, lexShell, unmark } from './shell-lexer.js';
import path from 'node:path';

export interface RunnerDirectoryOptions {
  /** Each DIR as written (relative to where the runner runs, or absolute; `~/x` spelled against no home). */
  readonly directories: readonly string[];
  /** The DIR words zotbox cannot spell out, as written. */
  readonly unspelled: readonly string[];
}

/** Each runner and its options naming the directory it takes as its project. */
const OPTIONS: Readonly<Record<string, readonly string[]>> = {
  npm: ['--prefix', '-C'],
  npx: ['--prefix', '-C'],
  bun: ['--cwd'],
  bunx: ['--cwd'],
};
/** npm reads its settings from the environment case-insensitively: `npm_config_prefix`, `NPM_CONFIG_PREFIX`. */
const PREFIX_ASSIGNMENT = /^npm_config_prefix=(.*)$/isu;
/** How deep shell text inside shell text (`sh -c`, eval) is read. */
const MAX_DEPTH = 4;

/** The directory options of every runner command of `text` (and of the shell text its commands run). */
export function runnerDirectoryOptions(text: string): RunnerDirectoryOptions {
  const found = { directories: [] as string[], unspelled: [] as string[] };
  read(text, found, 0);
  return found;
}

function read(text: string, found: { directories: string[]; unspelled: string[] }, depth: number): void {
  const expansions: string[] = [];
  const take = (word: string | undefined) => {
    if (word === undefined) return;
    // An expansion or a pattern is a directory zotbox cannot place; empty is npm's own default (no move).
    if (/[\uE000-\uEFFF\uF001-\uF004]/u.test(word)) found.unspelled.push(unmark(word.replace(/[\uE000-\uEFFF]/gu, (mark) => expansions[mark.charCodeAt(0) - EXPANSION_BASE] ?? '$…')));
    else if (word !== '') found.directories.push(word);
  };
  for (const words of lexShell(text, expansions)) {
    if (depth < MAX_DEPTH) for (const inner of commandStrings(words.map(unmark)).values()) read(inner, found, depth + 1);
    // The assignment anywhere before or among the words (`npm_config_prefix=web npm run lint`, `export ...`).
    for (const word of words) {
      const value = PREFIX_ASSIGNMENT.exec(word)?.[1];
      if (value !== undefined) take(value);
    }
    // Every runner word of the command (behind any wrapper), its options up to `--` (npm takes them anywhere).
    for (let at = 0; at < words.length; at++) {
      const names = OPTIONS[path.basename(unmark(words[at]!))];
      if (names === undefined) continue;
      for (let index = at + 1; index < words.length && words[index] !== '--'; index++) {
        const word = words[index]!;
        if (names.includes(word)) take(words[index + 1] ?? '');
        else for (const name of names) if (name.startsWith('--') && word.startsWith(`${name}=`)) take(word.slice(name.length + 1));
      }
    }
  }
}
