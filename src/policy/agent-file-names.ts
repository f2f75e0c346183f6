// Names the user's own tools would read as an option or as shell code (issue 21, review s46u): a hook hands the
// names of staged files to a program, in shell text (`execSync(`eslint ${files.join(" ")}`)`, `$(git diff --name-only)`)
// or as argv without `--`, so a file named `--config=p.cjs` or `src/$(sh p.sh).js` is the agent's code run unconfined.
// Pure string checks, no I/O: the writers (host/executors/confine/agent-name-checks.ts) decide which names are new.

/**
 * Characters a shell reads as code wherever they stand in an unquoted word: command substitution (backquote; `$`
 * below), command separators and pipes (`;`, `&`, `|`), redirections (`<`, `>`), and quoting (`"`, `'`, `\`), which
 * git also prints escaped, so a hook's list no longer names the file. `(`, `)`, `[`, `]`, `*`, `?`, `~`, `#`, `=`, `:`,
 * `,`, `%`, `+` stay: inside an argument they are a syntax error or a glob over names that exist (none made by the
 * agent starts with `-`), and routes such as `(group)/[id]/page.tsx` and `+page.svelte` use them; `@` stays but at
 * the top (responseFileReason).
 */
const SHELL_CODE = /[`;&|<>"'\\]/u;
/**
 * `$` where a shell expands it: `$(`, `${`, `$'`, `$[`, and every variable a shell or its caller sets (upper case,
 * `$IFS` splits, `$_`, `$1`, `$@`). Left alone: `$` at the end or before `.` (literal to every shell), and
 * `$name` in lower case (route parameters: React Router's `concerts.$city.tsx`, TanStack's `$postId.tsx`), which
 * expands to nothing where no such variable is set, as none is for a hook.
 */
const SHELL_EXPANSION = /\$(?!$|\.|[a-z][A-Za-z0-9]*(?![A-Za-z0-9_]))/u;
/** A brace bash and zsh expand into several words: a comma or a `..` sequence inside (`{-,-}-x`, `{a..c}`). */
const EXPANDS_BRACES = /\{[^}]*(?:,|\.\.)[^}]*\}/u;
/**
 * Line ends and control characters: a newline (or CR, VT, FF, the C0 separators, NEL, the unicode line and paragraph
 * separators) ends a command in shell text or a line in a hook's list; none is in an ordinary name.
 */
const LINE_OR_CONTROL = /[\u0000-\u001f\u007f\u0085\u2028\u2029]/u;
/**
 * Word splitting: the shell's IFS (space, tab) and python's `str.split()` (every unicode space). A name split so is
 * only an option or code where a word after the first starts one: `-` (but `--`, which ends options, and `-` alone,
 * standard input), `@` (a response file of options: tsc, gcc, javac, pytest) or an expanding `{`. Names with spaces
 * are ordinary (`Release Notes.md`, `Chapter 1 - Intro.md`, Cypress's `spec -- test (failed).png`); a tab is a
 * control character above.
 */
const SPLITS = /\s+/u;

/** Why a path component the agent makes would be read as an option or as code by the user's tools; undefined: it is a plain name. */
export function unsafeNameReason(name: string): string | undefined {
  if (name.startsWith('-')) return 'it starts with "-", so a program handed the name reads it as an option';
  if (name.startsWith('{') && EXPANDS_BRACES.test(name)) return 'it starts with a brace bash expands into several words, which can turn into an option';
  const expansion = SHELL_EXPANSION.exec(name);
  if (expansion !== null) return 'it holds "$" where a shell expands it, which a shell reads as code';
  const code = SHELL_CODE.exec(name);
  if (code !== null) return `it holds ${JSON.stringify(code[0])}, which a shell reads as code`;
  if (LINE_OR_CONTROL.test(name)) return 'it holds a line end or a control character, which ends a command in shell text';
  const option = name
    .split(SPLITS)
    .slice(1)
    .find((word) => (word.startsWith('-') && word !== '-' && word !== '--') || word.startsWith('@') || (word.startsWith('{') && EXPANDS_BRACES.test(word)));
  if (option !== undefined) return `it holds whitespace before ${JSON.stringify(option)}, so word splitting hands a program that option`;
  return undefined;
}

/**
 * A response file: tsc, gcc, javac, pytest and argparse programs read `@FILE` as a file of options (tsc's `--outFile
 * .git/hooks/pre-commit`). Only the first name of a path is a word's start when a hook hands it over (git names files
 * from the repository top), so a leading `@` is refused directly below a repository top or a write root, not deeper
 * (`src/@types`, `packages/@acme`, `node_modules/@scope` stay ordinary).
 */
export function responseFileReason(name: string): string | undefined {
  return name.startsWith('@') ? 'it starts with "@" at the top of the repository, so tsc, gcc, javac or pytest handed the name reads options from it' : undefined;
}

/**
 * Whether `p` lies in a git directory, whose entries are git's data, held to git's grammar by the git aftercare, not
 * names the agent chose: below `.git` in any case, which git never stages (verify_path), whatever its settings. The
 * other aliases (`.git` with HFS-ignorable code points, trailing dots, `git~1`) are refused by git only where
 * core.protectHFS or core.protectNTFS say so; on Linux `git add -A` may stage what they hold, so names there are checked. Package directories (`node_modules`, `site-packages`) are checked like
 * any other: nothing makes git ignore them (the agent may write `.gitignore`), and their packages use no such names.
 */
export function isInsideToolData(p: string): boolean {
  return p.split('/').some((component) => component.toLowerCase() === '.git');
}
