// Names the user's own tools would read as an option or as shell code (issue 21, review s46u): a hook hands the
// names of staged files to a program, in shell text (`execSync(`eslint ${files.join(" ")}`)`, `$(git diff --name-only)`)
// or as argv without `--`, so a file named `--config=p.cjs` or `src/$(sh p.sh).js` is the agent's code run unconfined.
// Pure string checks, no I/O: the writers (host/executors/confine/agent-name-checks.ts) decide which names are new.
import { isGitDirectoryName } from './git-control.js';

/**
 * Characters a shell reads as code wherever they stand in an unquoted word: expansions (`$`, backquote), command
 * separators and pipes (`;`, `&`, `|`), redirections (`<`, `>`), and quoting (`"`, `'`, `\`), which git also prints
 * escaped, so a hook's list no longer names the file. `(`, `)`, `[`, `]`, `*`, `?`, `~`, `#`, `=`, `:`, `,`, `%`,
 * `@`, `+` stay: inside an argument they are a syntax error or a glob over names that exist (none made by the agent
 * starts with `-`), and routes such as `(group)/[id]/page.tsx` and `+page.svelte` use them.
 */
const SHELL_CODE = /[$`;&|<>"'\\]/u;
/**
 * Line ends and control characters: a newline (or CR, VT, FF, the C0 separators, NEL, the unicode line and paragraph
 * separators) ends a command in shell text or a line in a hook's list; none is in an ordinary name.
 */
const LINE_OR_CONTROL = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/u;
/**
 * Word splitting: the shell's IFS (space, tab) and python's `str.split()` (every unicode space). A name split so is
 * only an option or code where a word after the first starts one: `-` (but `--`, which ends options, and `-` alone,
 * standard input) or `{`. Names with spaces are ordinary (`Release Notes.md`, `Chapter 1 - Intro.md`, Cypress's
 * `spec -- test (failed).png`); a tab is a control character above.
 */
const SPLITS = /\s+/u;

/** Why a path component the agent makes would be read as an option or as code by the user's tools; undefined: it is a plain name. */
export function unsafeNameReason(name: string): string | undefined {
  if (name.startsWith('-')) return 'it starts with "-", so a program handed the name reads it as an option';
  if (name.startsWith('{')) return 'it starts with "{", which bash brace expansion can turn into an option';
  const code = SHELL_CODE.exec(name);
  if (code !== null) return `it holds ${JSON.stringify(code[0])}, which a shell reads as code`;
  if (LINE_OR_CONTROL.test(name)) return 'it holds a line end or a control character, which ends a command in shell text';
  const option = name
    .split(SPLITS)
    .slice(1)
    .find((word) => (word.startsWith('-') && word !== '-' && word !== '--') || word.startsWith('{'));
  if (option !== undefined) return `it holds whitespace before ${JSON.stringify(option)}, so word splitting hands a program that option`;
  return undefined;
}

/**
 * Where package managers install packages, whose files keep their authors' names (setuptools ships
 * `script (dev).tmpl`): npm's `node_modules`, and python's `site-packages` / `dist-packages` (a project's `.venv`).
 * They are ignored by git in projects that have them, so no hook is handed their names.
 */
const PACKAGE_DIRECTORIES: ReadonlySet<string> = new Set(['node_modules', 'site-packages', 'dist-packages']);

/**
 * Directories whose entries are tools' data, not names the agent chose, and never staged: git's own (`.git` and its
 * aliases: the git aftercare holds them to git's grammar) and the package directories above.
 */
export function isToolDataDirectory(name: string): boolean {
  return PACKAGE_DIRECTORIES.has(name) || isGitDirectoryName(name);
}

/**
 * Whether some component of `p` is a tool data directory. The whole path counts, not the part below a write root: a
 * scope declared inside `node_modules` or a venv's `site-packages` holds that tool's data too.
 */
export function isInsideToolData(p: string): boolean {
  return p.split('/').some(isToolDataDirectory);
}
