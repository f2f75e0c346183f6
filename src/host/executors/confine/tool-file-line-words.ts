// The line grammars of a words file (a tool's settings, a hook manager's configuration, a script read for its words):
// which words of a line may name a file, what an interpreter a line names runs, where its commands run (a cwd, a cd),
// the directories its environment settings name, and a nix file's shellHook text. Pure reading of text: the caller
// (tool-file-references.ts) decides what is protected.
import path from 'node:path';
import { interpreterReading } from './interpreter-operands.js';
import { searchPathNames } from './shell-command-reading.js';
import { plainWord, valuePaths } from './tool-file-words.js';
import { DATA_VARIABLES, SEARCH_VARIABLES } from './variable-kinds.js';

/** The variables of editors and dev containers that stand for the workspace (VS Code, JetBrains' $PROJECT_DIR$). */
export const WORKSPACE_VARIABLES = /\$\{(workspaceFolder|workspaceRoot|fileWorkspaceFolder|localWorkspaceFolder|containerWorkspaceFolder)\}|\$PROJECT_DIR\$/gu;

/**
 * The words of a line of a tool file that may name a file: every word, with or without a "/" (`sh check.sh`, a task's
 * `"args": ["on-open.sh"]`), as for git configuration values. JSON keys, XML element and attribute names, and URLs name none.
 */
export function lineWords(line: string): string[] {
  const text = line
    .replace(WORKSPACE_VARIABLES, '.')
    // A package-qualified variable (`$FindBin::Bin/../lib`) is one expansion, not words split at its "::".
    .replace(/[$@%]\{?\w+(?:::\w+)+/gu, (variable) => variable.replace(/::/gu, '__'))
    .replace(/"(?:[^"\\]|\\.)*"\s*:/gu, ' ')
    .replace(/<\/?[\w:.-]+|\b[\w:.-]+=(?=["'])/gu, ' ')
    .replace(/[a-z][\w+.-]*:\/\/\S*/giu, ' ');
  // A blank escaped for the shell (`sh tools/run\ now.sh`) is part of its word.
  const words = text
    .replace(/\\ /gu, '\uE100')
    .split(/[\s"'`,;=()[\]{}<>|&:]+/u)
    .map((word) => word.replace(/\uE100/gu, ' '));
  // A quoted name with blanks in it ("scripts/pre commit.sh") is one file too.
  const quoted = [...text.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/gu)].map((match) => (match[1] ?? match[2] ?? '').trim());
  return [...words, ...quoted.filter((whole) => /\s/u.test(whole) && plainWord(whole.replace(/ /gu, '_')))].filter((word) => plainWord(word.replace(/ /gu, '_')) && !/[\u0000-\u001f]/u.test(word));
}

/**
 * What an interpreter a line names runs besides the words written (`entry: python -m tools.check` runs
 * tools/check.py, `node tools` tools/index.js): interpreter-operands.ts, on the line's blank-separated words.
 */
export function grammarNames(text: string): { readonly text: string; readonly tree: boolean; readonly line: number }[] {
  // The whole file as one stream of words, each with its line: a task's "command": "python3" and its
  // "args": ["-m", "tools.lint"] (pre-commit's entry: and args:) are one command on several lines.
  const words = text
    .replace(WORKSPACE_VARIABLES, '.')
    .split('\n')
    .flatMap((line, index) =>
      line
        .replace(/"(?:command|args|entry|run|program|cmd)"\s*:|^\s*-?\s*(?:command|args|entry|run|program|cmd)\s*:/gu, ' ')
        .split(/[\s"'`,;()[\]{}<>|&]+/u)
        .filter((word) => word !== '')
        .map((word) => ({ word, line: index })),
    );
  const plain = words.map(({ word }) => word);
  return words
    .flatMap(({ word, line }, index) =>
      // An interpreter's grammar, and a search path set for the command (lefthook's `run: PYTHONPATH=tools python3 -m lint`).
      [...interpreterReading(path.basename(word), plain.slice(index + 1, index + 64), word).names, ...searchPathNames(word)].map((name) => ({ ...name, line })),
    )
    .filter((name) => plainWord(name.text));
}

/** Spellings of "the directory this script is in" and "the top of the repository" that a cd may name. */
const SCRIPT_DIRECTORY = /^(?:\$\(\s*dirname\s+(?:--\s+)?"?\$(?:0|\{0\}|\{BASH_SOURCE(?:\[0\])?\}|BASH_SOURCE)"?\s*\)|\$\{0%\/\*\})/u;
const TOP = /^\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)/u;

/**
 * Where the commands of a words file run besides its base (relative to it, or absolute): a task's `options.cwd`
 * (VS Code, dev containers), lefthook's `root`, mise's `dir`, and each `cd`/`pushd` of a script (every one, wherever
 * it stands: more files protected, never fewer). A target zotbox cannot work out is unresolved (closed world).
 */
export function workingDirectories(text: string, file: string, where: (index: number, what: string) => string, unresolved: string[]): string[] {
  const found: { target: string | undefined; index: number }[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    for (const match of line.matchAll(/"(?:cwd|root|dir)"\s*:\s*"((?:[^"\\]|\\.)*)"|^\s*(?:cwd|root|dir)\s*[:=]\s*["']?([^"'\s#]*)/gu)) found.push({ target: match[1] ?? match[2], index });
    for (const match of line.matchAll(/(?:^|[;&|({]|\b(?:then|do|else|exec|builtin))\s*(?:cd|pushd)(?=$|[\s;&|)])((?:\s+-[A-Za-z@]+)*)(?:\s+("[^"]*"|'[^']*'|[^\s;&|)]+))?/gu))
      found.push({ target: match[2], index });
  }
  const directories: string[] = [];
  for (const { target, index } of found) {
    const unquoted = (target ?? '').replace(/^(["'])(.*)\1$/u, '$2').replace(WORKSPACE_VARIABLES, '.');
    const spelled = unquoted
      .replace(SCRIPT_DIRECTORY, path.dirname(file))
      .replace(TOP, '.')
      .replace(/^\$\{?PWD\}?(?=\/|$)/u, '.');
    if (target === undefined || spelled === '' || spelled === '-' || /[$`~*?[\\]/u.test(spelled)) {
      unresolved.push(where(index, `: a command there runs in a directory zotbox cannot work out (${target ?? 'cd alone: the home directory'}), so any file could be what it runs`));
      continue;
    }
    // A cd relative to the directory an earlier one moved to is relative to that one too.
    const next = [spelled, ...(path.isAbsolute(spelled) ? [] : directories.map((d) => path.join(d, spelled)))];
    for (const directory of next) if (!directories.includes(directory) && directories.length < 64) directories.push(directory);
  }
  return directories;
}

/**
 * The directories a words file's environment settings name (`"PATH": "${workspaceFolder}/tools:${env:PATH}"`,
 * `"PYTHONPATH": "${workspaceFolder}/lib"` in a terminal's or task's env, `XDG_CONFIG_HOME = ".config"` in mise's
 * [env]): every entry of a search-path variable, every path-like part of another variable's value (a directory
 * tools search for code or configuration), unless the variable is one of the data variables (DATA_VARIABLES).
 */
export function pathEntries(text: string, where: (index: number, what: string) => string, unresolved: string[]): { readonly entry: string; readonly index: number }[] {
  const entries: { entry: string; index: number }[] = [];
  for (const [index, line] of text.split('\n').entries()) {
    for (const match of line.matchAll(/"([A-Z][A-Z0-9_]*)"\s*:\s*"((?:[^"\\]|\\.)*)"|^\s*([A-Z][A-Z0-9_]*)\s*[:=]\s*["']?([^"'#]*)/gu)) {
      const name = match[1] ?? match[3]!;
      if (DATA_VARIABLES.test(name)) continue;
      const value = (match[2] ?? match[4] ?? '').replace(WORKSPACE_VARIABLES, '.');
      if (!SEARCH_VARIABLES.test(name)) {
        for (const piece of valuePaths(value)) entries.push({ entry: piece, index });
        continue;
      }
      for (const piece of value.split(/[:;](?![^{]*\})/u)) {
        // The user's own value, from the environment of the editor, the host or the container: theirs.
        if (piece.trim() === '' || /^\$\{(env|localEnv|containerEnv):[^}]*\}$/u.test(piece) || piece === `$${name}` || piece === `\${${name}}`) continue;
        if (!plainWord(piece)) unresolved.push(where(index, `: it puts ${JSON.stringify(piece)} on ${name}, and zotbox cannot work out which directory that is`));
        else entries.push({ entry: piece, index });
      }
    }
  }
  return entries;
}

/** The shell text of a nix file's shellHook strings, with `${./dir}` path literals as the absolute paths they copy. */
export function shellHooks(text: string, file: string): string[] {
  const hooks: string[] = [];
  for (const match of text.matchAll(/shellHook\s*=\s*(?:''([\s\S]*?)''(?!')|"((?:[^"\\]|\\.)*)")/gu)) {
    hooks.push(
      (match[1] ?? match[2] ?? '')
        .replace(/\$\{\s*(\.\.?\/[\w.+/-]*)\s*\}/gu, (_, literal: string) => path.resolve(path.dirname(file), literal))
        // Other interpolations are store paths (${pkgs.hello}/bin/hello): outside the workspace.
        .replace(/\$\{[^}]*\}/gu, '/nix/store/interpolated'),
    );
  }
  return hooks;
}
