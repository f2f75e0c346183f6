// Programs that run the command their operands give (`timeout 5 CMD`, `xargs CMD`, `flock FILE CMD`): where that
// command stands among the words. Pure reading of words: no I/O.

import { unmark } from './shell-lexer.js';

/** Options of the wrappers read as prefixes that take a value as the next word (`nice -n 5`, `env -u VAR`, `env -C DIR`). */
export const PREFIX_VALUED = new Set(['-n', '--adjustment', '-u', '--unset', '-C', '--chdir']);

/**
 * Programs that run the command their operands give (the other wrappers, `env`, `nice`, ..., are read as prefixes):
 * the operands before the command (`timeout 5 CMD`, `flock FILE CMD`) and the options that take a value.
 */
const WRAPPERS: ReadonlyMap<string, { readonly before: number; readonly valued: readonly string[] }> = new Map([
  ['timeout', { before: 1, valued: ['-s', '--signal', '-k', '--kill-after'] }],
  ['caffeinate', { before: 0, valued: ['-w', '-t'] }],
  ['xargs', { before: 0, valued: ['-a', '-d', '-E', '-I', '-L', '-n', '-P', '-s', '--arg-file', '--delimiter', '--max-args', '--max-procs', '--max-lines'] }],
  ['flock', { before: 1, valued: ['-w', '-E', '--timeout', '--wait', '--conflict-exit-code'] }],
  ['taskset', { before: 1, valued: [] }],
  ['stdbuf', { before: 0, valued: ['-i', '-o', '-e'] }],
  ['ionice', { before: 0, valued: ['-c', '-n', '--class', '--classdata'] }],
  ['watch', { before: 0, valued: ['-n', '--interval'] }],
  ['sudo', { before: 0, valued: ['-u', '-g', '-C', '-D', '--user', '--group'] }],
  ['doas', { before: 0, valued: ['-u'] }],
  ['dotenv', { before: 0, valued: ['-e', '-v', '-c'] }],
  ...['chronic', 'setsid', 'unbuffer', 'cross-env', 'nohup', 'nice', 'env', 'time', 'exec'].map((name): [string, { before: number; valued: string[] }] => [
    name,
    { before: 0, valued: [...PREFIX_VALUED] },
  ]),
]);

/**
 * The index of the word the wrapper at `at` runs (`timeout 5 CMD`: CMD's; its options, assignments and leading
 * operands skipped), or undefined where `words[at]` is no wrapper. The index may be past the end (nothing run).
 */
export function wrapperOperand(words: readonly string[], at: number): number | undefined {
  const wrapper = WRAPPERS.get(unmark(words[at] ?? ''));
  if (wrapper === undefined) return undefined;
  let index = at + 1;
  while (index < words.length && (words[index]!.startsWith('-') || /^[A-Za-z_]\w*=/u.test(words[index]!))) {
    if (words[index] === '--') {
      index++;
      break;
    }
    index += wrapper.valued.includes(words[index]!) ? 2 : 1;
  }
  return index + wrapper.before;
}

/**
 * The command the first wrapper at or before `at` (a command's program) runs (`timeout 5 CMD`, `xargs -n 1 CMD`;
 * wrappers in a row followed), if one is there. (`command` is none: `command -v "$X"` only looks a name up.)
 */
export function wrappedCommand(words: readonly string[], at: number): number | undefined {
  const first = words.findIndex((word, index) => index <= at && WRAPPERS.has(unmark(word)));
  if (first === -1) return undefined;
  let index = first;
  for (let next = wrapperOperand(words, index); next !== undefined; next = wrapperOperand(words, index)) index = next;
  return index >= words.length ? undefined : index;
}
