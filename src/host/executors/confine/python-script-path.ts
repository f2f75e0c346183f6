// The PATH a shell script looks a bare `python`/`python3` up on (s42q review: `. .venv/bin/activate` then `python
// tools/check.py` runs the venv's interpreter, whose path holds the project's editable install). Followed through the
// script's commands in order: activate puts its venv's bin/ first, a PATH assignment (exported, or for one command)
// its entries, the project-venv runners (`uv run`, `poetry run`...) their venv. The interpreter word then names that
// PATH (python-path-imports.ts looks it up there); an entry zotbox cannot spell out stays unknown, never skipped. Any
// other bare name is looked up on the same PATH by script-path-programs.ts (a venv's console scripts). Pure.
import path from 'node:path';

/** The user's own PATH, where a script's `$PATH` stands. */
export const USER_PATH = '$PATH';
/** An entry zotbox cannot spell out (`$(npm root)/.bin`, `$VENV/bin`): a lookup that reaches it is unknown. */
export const UNKNOWN_ENTRY = '?';

export const PYTHON = /^(python|pypy)([0-9]+(\.[0-9]+)*)?$/u;
const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=(.*)$/su;
const DECLARERS = new Set(['export', 'local', 'readonly', 'declare', 'typeset']);
/** Runners that run a command in the project's venv: uv, poetry, pdm and pipenv use an in-project `.venv` that exists; anything else is unknown. */
export const VENV_RUNNERS: Readonly<Record<string, readonly string[]>> = {
  uv: ['.venv/bin', UNKNOWN_ENTRY],
  poetry: ['.venv/bin', UNKNOWN_ENTRY],
  pdm: ['.venv/bin', UNKNOWN_ENTRY],
  pipenv: ['.venv/bin', UNKNOWN_ENTRY],
  hatch: [UNKNOWN_ENTRY],
};
const WORD = /^(\S+) \(PATH=(.*)\)$/su;

/** The interpreter word for a bare `name` looked up on `entries` (the user's PATH alone: the name as written). */
export function onScriptPath(name: string, entries: readonly string[]): string {
  return entries.length === 1 && entries[0] === USER_PATH ? name : `${name} (PATH=${entries.join(':')})`;
}

/** The name and PATH entries of a word built by onScriptPath (relative entries: to where the command runs); undefined for any other word. */
export function scriptPathOf(word: string): { readonly name: string; readonly entries: readonly string[] } | undefined {
  const match = WORD.exec(word);
  return match === null || !PYTHON.test(match[1]!) ? undefined : { name: match[1]!, entries: match[2]!.split(':') };
}

/**
 * Per script reading: the PATH as its commands leave it. `expansionOf` gives the text of an expansion the lexer left
 * in a word (a character from U+E000). `interpreterWord(command, at)` is the word each of the command's bare Python
 * names runs as, by index; `after(command, at)` moves the PATH on (`at`: the index of the command's program).
 */
export function scriptPathTracker(expansionOf: (mark: string) => string | undefined): {
  interpreterWord(command: readonly string[], at: number): (index: number, written: string) => string;
  /** The PATH entries the command's program is looked up on: the script's, with the command's own assignments. */
  commandPath(command: readonly string[], at: number): readonly string[];
  after(command: readonly string[], at: number): void;
} {
  let entries: readonly string[] = [USER_PATH];
  const saved: (readonly string[])[] = [];
  // A PATH value's entries: `$PATH` the entries before it, any other expansion unknown, an empty one the working directory.
  const valueEntries = (value: string, before: readonly string[]): string[] =>
    value.split(':').flatMap((entry) => {
      if (entry === '') return ['.'];
      if (!/[\uE000-\uEFFF\uF100-\uF1FF]/u.test(entry)) return [entry];
      return entry.length === 1 && /^\$(PATH|\{PATH\})$/u.test(expansionOf(entry) ?? '') ? [...before] : [UNKNOWN_ENTRY];
    });
  const assigned = (words: readonly string[], before: readonly string[]) => {
    let value = before;
    for (const word of words) {
      const assignment = ASSIGNMENT.exec(word);
      if (assignment?.[1] !== 'PATH') continue;
      value = assignment[2] === '+' ? [...value, ...valueEntries(assignment[3]!.replace(/^:/u, ''), [])] : valueEntries(assignment[3]!, value);
    }
    return value;
  };
  return {
    interpreterWord(command, at) {
      // A command's own assignments are the PATH its program is looked up on (`PATH=.venv/bin:$PATH python x.py`).
      const own = assigned(command.slice(0, at), entries);
      const runner = VENV_RUNNERS[command[at] ?? ''] !== undefined && command[at + 1] === 'run' ? at + 1 : undefined;
      return (index, written) => {
        if (!PYTHON.test(written)) return written;
        return onScriptPath(written, runner !== undefined && index > runner ? VENV_RUNNERS[command[at]!]! : own);
      };
    },
    commandPath(command, at) {
      return assigned(command.slice(0, at), entries);
    },
    after(command, at) {
      const program = command[at];
      if (program === undefined) entries = assigned(command, entries);
      else if (DECLARERS.has(program)) entries = assigned(command.slice(at + 1), entries);
      else if ((program === '.' || program === 'source') && path.basename(command[at + 1] ?? '') === 'activate') {
        // The venv's activate puts its bin/ (where it lies) first; deactivate puts the PATH back.
        saved.push(entries);
        const script = command[at + 1]!;
        entries = [/[\uE000-\uEFFF\uF100-\uF1FF]/u.test(script) ? UNKNOWN_ENTRY : path.dirname(script), ...entries];
      } else if (program === 'deactivate') entries = saved.pop() ?? entries;
    },
  };
}
