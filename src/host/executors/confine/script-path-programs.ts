// What a bare command name runs on the PATH a script set (s43r review: `. .venv/bin/activate` then `mypkg-lint`, a
// venv's console script, whose `from mypkg.lint import main` loads the project's editable install). The file of that
// name in each entry the script put on PATH is named as run, so it is protected and read by its #! line (a venv
// python's imports followed through that venv's path, as `.venv/bin/mypkg-lint` by path is); every entry counts, not
// only the first holding it (more, never less). A project-venv runner (`uv run NAME`) runs NAME from its venv's bin/,
// and `uv run X.py` runs X.py with the venv's python. The user's own absolute entries, and entries zotbox cannot spell
// out, are left to the word as written (its relative ones: user-path-programs.ts). Pure, no I/O.
import path from 'node:path';
import { interpreterReading } from './interpreter-operands.js';
import { onScriptPath, PYTHON, UNKNOWN_ENTRY, USER_PATH, VENV_RUNNERS } from './python-script-path.js';

/** A name a command runs through the script's PATH: a file to protect and read (`runs`: as the program run), or a python mark. */
export interface PathProgram {
  readonly text: string;
  readonly tree: boolean;
  readonly runs: boolean;
}

/** Words that are no plain command name: a path, an option, an expansion or pattern the lexer left in. */
const NOT_A_NAME = /[/\uE000-\uEFFF\uF000-\uF1FF]|^-|^$/u;
/** What `uv run` runs with python rather than as a command. */
const PYTHON_SCRIPT = /\.pyw?$/u;

/**
 * The files the command's program (at `at`, its words unmarked) runs as on `entries` (the PATH it is looked up on),
 * and what a project-venv runner's command runs from its venv.
 */
export function programsOnScriptPath(words: readonly string[], at: number, entries: readonly string[]): PathProgram[] {
  const found = namedOn(words[at] ?? '', entries);
  const runner = VENV_RUNNERS[words[at] ?? ''];
  if (runner === undefined || words[at + 1] !== 'run') return found;
  for (const index of runnerCommands(words, at + 2)) {
    const word = words[index]!;
    if (PYTHON_SCRIPT.test(word) && !word.startsWith('-')) {
      // `uv run X.py`: `python X.py` with the venv's python (its sys.path[0] mark names that interpreter).
      const reading = interpreterReading('python', [...words.slice(index)], onScriptPath('python', runner));
      found.push(...reading.names.map((name) => ({ text: name.text, tree: name.tree, runs: false })));
    } else found.push(...namedOn(word, runner));
  }
  return found;
}

/**
 * A bare name's file in each entry zotbox can spell out, past the user's PATH (a bare python is python-script-path.ts's;
 * deactivate is the function activate defines).
 */
function namedOn(name: string, entries: readonly string[]): PathProgram[] {
  if (NOT_A_NAME.test(name) || PYTHON.test(name) || name === 'deactivate' || entries.every((entry) => entry === USER_PATH)) return [];
  return entries.filter((entry) => entry !== USER_PATH && entry !== UNKNOWN_ENTRY).map((entry) => ({ text: path.join(entry, name), tree: false, runs: true }));
}

/**
 * The words after a runner's `run` that may be the command it runs: past its options, the first word that no option
 * stands before; a word after an option may be that option's value (`uv run --with ruff mypkg-lint`), so it counts
 * too (more, never less).
 */
function runnerCommands(words: readonly string[], from: number): number[] {
  const indexes: number[] = [];
  for (let index = from; index < words.length; index++) {
    const word = words[index]!;
    if (word.startsWith('-')) continue;
    indexes.push(index);
    const before = words[index - 1] ?? '';
    if (index === from || !before.startsWith('-') || before.includes('=') || before === '--') break;
  }
  return indexes;
}
