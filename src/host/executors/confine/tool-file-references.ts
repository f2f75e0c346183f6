// What a protected tool file names is as dangerous as the tool file (issue 21
// review: other tools' files). direnv approves the bytes of .envrc alone, and
// then runs what it sources (`source_env_if_exists .envrc.local`), loads what it
// names (`dotenv` → .env, `use nix` → shell.nix, `use flake` → flake.nix) and puts
// the directories it adds to PATH ahead of the user's programs; VS Code runs the
// script a folderOpen task names. Each file such a tool file names, inside the
// write scopes, is protected as the tool file is: bound read-only, put back
// after a command, refused to the write and edit tools (the reason names the file
// and line that names it). A write scope that names the path, or lies inside it,
// grants it.
// Read in a closed world:
//   - .envrc, and every file it sources, by direnv's grammar: a closed list of
//     stdlib directives (DIRENV_DIRECTIVES; `layout` as the stdlib defines each
//     layout, layoutNames) and assignments, each ;/&& command of a line
//     (envrc-lines.ts; every entry of a *PATH value is a directory on a search
//     path, with or without a "/"); any other line (a
//     command, a function, a condition, $(...), `...`, an unknown layout) is not
//     understood, and every writer is refused until it is changed (unresolved);
//   - a dotenv file: KEY=VALUE lines; a value naming a path protects that path;
//   - a .nix file: its path literals (./x, ../x), followed into the .nix files
//     they name; the directory itself (./.) is copied into the store, not run;
//     the words of its shellHook strings, run in the .envrc's directory, as a
//     script's words (${./dir}/x is dir/x);
//   - any other file of a protected tool (.vscode/, .devcontainer/, .mcp.json,
//     .husky/, .claude/, a *.code-workspace ...): every word, with or without a
//     "/" (`sh check.sh`; JSON keys, XML names and URLs excepted), after
//     ${workspaceFolder} and its kin, relative to the directory that holds the
//     tool file's top entry and to every directory a `cwd` or a `cd` names (one
//     zotbox cannot work out is unresolved), when it names a file (a directory a
//     setting names, a working directory, is not protected); a "PATH" it sets
//     puts its workspace entries on PATH (protected whole). A file so named is
//     read the same way, and so is every script named by a script, to the end of
//     the chain (within MAX_FILES).
//   - a Python virtual environment (pyvenv.cfg, or bin/activate): its whole bin/
//     (and Scripts/), which activation puts first on PATH.
// A file zotbox cannot read whole (too large, unreadable) is unresolved too.
import { closeSync, constants, lstatSync, openSync, readdirSync, readSync, type Stats } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import { isPlainFolder, realFolder } from './plain-folders.js';
import type { ControlLocation } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import type { HookDirectory } from './control-locations.js';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
export { DIRENV_FUNCTIONS } from './direnv-stdlib.js';
import { pythonComputedLoads } from './python-computed-loads.js';
import { moduleEntriesLocation, withModuleEntries } from './python-installed-names.js';
import { pathImportResolver } from './python-path-imports.js';
import { type DefinedCommands, scriptWords, shebangProgramOf } from './shell-command-words.js';
import { sourcedFileReader } from './sourced-function-files.js';
import { repositoryTopOf } from './repository-top.js';
import { lineWords, grammarNames, pathEntries, shellHooks, WORKSPACE_VARIABLES, workingDirectories } from './tool-file-line-words.js';
import { toolKeyNames } from './tool-key-names.js';
import { nodeComputedLoads } from './node-computed-loads.js';
import { isProgramCode, programCodeNames } from './program-code-names.js';
import type { DirectiveReading } from './direnv-stdlib.js';
import { DIRENV, environmentFileNames } from './envrc-lines.js';
import { enclosingToolEntries } from './enclosing-tool-entries.js';
import { packageManagerConfigNames } from './package-manager-configs.js';
import { CLIMB_REASON, climbsOutsideOwn } from './lexical-climb.js';
import { isLink, linkedProgram } from './linked-programs.js';
import { namesNoFile } from './overlong-names.js';
import { interpreterOperands, isOperand, jsxOperands, operandLanguage, operandRun, PROGRAM_FILE, typescriptOperands } from './operand-languages.js';
import { packageSpecifierNames } from './node-module-resolution.js';
import { type NodeBinContext, nodeBinPlaces, nodeBinReading } from './node-bin-runs.js';
import { programRunsOnUserPath } from './user-path-programs.js';
import { nodeBinShim } from './node-bin-shims.js';
import { installedPythonSite } from './python-installed-files.js';
import { isInstalledPackageFile, isNodeBinEntry } from './node-installed-bins.js';
import { nodePreloadNames } from './node-preload-packages.js';
import { packageBins, specPackageName } from './node-package-bins.js';
import { isLintStagedConfig, lintStagedCommands, packageCommands, packageConfigs } from './lint-staged-configs.js';
import { typescriptMapNames } from './typescript-path-maps.js';
import { NO_RUN_OPTIONS, type TypescriptRun } from './typescript-runners.js';
import { programRelativeNames } from './program-relative-names.js';
import { programCommandTexts } from './program-command-texts.js';
import { programFileLanguage, runnerInPlay } from './program-runner-words.js';
import type { ProgramLanguage } from './inline-program-runs.js';
import { invocationOf, type ScriptInvocation, scriptShell } from './script-invocation.js';
import { type StartupLanguage, startupCompanions, startupLanguage, startupNamed } from './startup-file-sources.js';

export interface ToolFileReferences {
  /** Paths tool files name, inside the write scopes and granted by none: protected as tool files are. */
  readonly locations: readonly ControlLocation[];
  /** Lines and files zotbox cannot read: each refuses every writer, named in the error. */
  readonly unresolved: readonly string[];
  /** The tool entries found above the write scopes (protected-locations.ts follows their links into the scopes). */
  readonly enclosing?: readonly string[];
}

/**
 * Tool entries whose files are read for the paths they name: settings of editors, dev containers, coding agents,
 * hook managers, mise (what they run is spelled in them). Not the startup files of shells and REPLs, nor a Python
 * environment's files (code, protected whole where it runs on its own).
 */
const WORDS_ENTRIES =
  /^(\.vscode|\.idea|\.devcontainer(\.json)?|\.zed|\.helix|\.claude(\.json)?|\.cursor|\.mcp\.json|\.gemini|\.qwen|\.?crush\.json|rust-toolchain(\.toml)?|\.gitpod\.yml|\.amazonq|\.kiro|\.roo|\.continue|\.codex|\.opencode|opencode\.jsonc?|\.aider\.conf\.yml|\.husky|\.pre-commit-config\.yaml|.+\.code-workspace|\.?lefthook(-local)?(\.(ya?ml|toml|jsonc?))?|\.lintstagedrc.*|lint-staged\.config\..*|\.huskyrc.*|\.mise|\.?mise.*\.toml|\.lazygit\.yml|\.ripgreprc)$/iu;

/**
 * Files of a tool directory the tool never runs anything from, not read (nor counted against MAX_FILES): JetBrains'
 * state (the files open in editor tabs, recent ones, shelved changes, data sources), and its library descriptors, one
 * per dependency (a Maven project holds hundreds), which name the jars of the project's own classpath: code the user
 * runs on purpose, as the project's sources are, never on opening the project.
 */
const IDE_STATE = /\/\.idea\/(workspace\.xml|shelf\/|dataSources\/|libraries\/)/iu;

/** Files read per call at most (sourced files, nix imports): past it, the rest is unresolved. */
const MAX_FILES = 200;

/** `program`: program code an interpreter runs (its operand), read as words and by that language's grammar whatever its name. */
type Reading = DirectiveReading | 'script' | 'program';

interface Named {
  readonly name: string;
  /**
   * `value`: a variable's path: a file it names is read as words, anything else (a directory, nothing yet) protected
   * whole. `link`: a link on the way to what runs (node_modules into the project), protected as the link it is.
   */
  readonly as: Reading | 'tree' | 'value' | 'hooks' | 'link';
  /** What names it: "/ws/.envrc line 1 (source_env_if_exists .envrc.local)". */
  readonly by: string;
  /** Who runs what it names. */
  readonly runBy: string;
  /** A script's word that is run or sourced: read as a script in turn, wherever it lies. */
  readonly runs?: boolean;
  /** How the shell that reads a script it runs or sources starts (its $0, whether bash reads it), where not by its #! line. */
  readonly invocation?: ScriptInvocation;
  /** Named by a program's code: a module it loads (or a program it starts), where the main program is not this file. */
  readonly loaded?: true;
  /** Where what it names runs, when a `cd` moved there (absolute, or relative to where the naming file's words are taken from). */
  readonly runsIn?: string;
  /** The interpreter's language, where the word is an interpreter's operand (`python3 tools/check.py`): read as its program code. */
  readonly language?: ProgramLanguage;
  /** The TypeScript runner that runs it (and loads what it imports through tsconfig.json and deno's maps). */
  readonly typescript?: TypescriptRun;
  /** Run by bun, which reads a `.js` file as JSX. */
  readonly jsx?: true;
  /** For a hooks directory (`hooks`): the tops git runs its hooks at. */
  readonly tops?: readonly string[];
  /** The NODE_PATH it runs with, where a shim exports one (node looks bare specifiers up there after node_modules). */
  readonly nodePath?: string;
  /** Run through node_modules/.bin (a bin, what pnpm's shim runs, a runner's package bin): installed code is not read on. */
  readonly nodeBin?: true;
  /** A file an editor's, debugger's or REPL's startup file loads: read as words and by that language's directives (startup-file-sources.ts). */
  readonly startup?: StartupLanguage;
}

/** Printable characters only: an escape that spells a line break or a control character stays as written (lines keep their numbers). */
const printable = (code: number, written: string) => (code >= 0x20 && code <= 0x10ffff ? String.fromCodePoint(code) : written);

/**
 * A settings file's string escapes spelled out, as its tool reads them before running a command: JSON's and YAML's
 * and TOML's \" \\ \/ \uXXXX, a backslash before a blank, XML's character and entity references.
 */
function decodeEscapes(text: string): string {
  return text
    .replace(/\\u([0-9A-Fa-f]{4})|\\U([0-9A-Fa-f]{8})/gu, (written, short: string | undefined, long: string | undefined) => printable(Number.parseInt(short ?? long!, 16), written))
    .replace(/\\([\\/"' ])/gu, '$1')
    .replace(/&#(\d{1,7});|&#x([0-9A-Fa-f]{1,6});/gu, (written, decimal: string | undefined, hex: string | undefined) =>
      printable(decimal === undefined ? Number.parseInt(hex!, 16) : Number(decimal), written),
    )
    .replace(/&(quot|apos|amp|lt|gt);/gu, (_, name: string) => ({ quot: '"', apos: "'", amp: '&', lt: '<', gt: '>' })[name]!);
}

/**
 * A shell script a tool runs (a hook, what a hook or a tool file runs), read by the shell's grammar where it runs
 * (shell-command-words.ts): every word, the modules and directories interpreters run, patterns that are run or
 * looped over (their fixed directory), and what it cannot spell out, unresolved. A word that is run or sourced is read
 * in turn (`runs`).
 */
function readScript(
  file: string,
  written: string,
  base: string,
  runBy: string,
  unresolved: string[],
  environment: Readonly<Record<string, string | undefined>>,
  runAs = file,
  invocation: ScriptInvocation = {},
  tops: readonly string[] = [],
): Named[] {
  const named: Named[] = [];
  // pnpm's shim in .bin (node-bin-shims.ts): its own directory spelled out; what it runs loads through its NODE_PATH.
  const shim = nodeBinShim(written, runAs);
  const text = shim?.script ?? written;
  const nodePath = shim?.nodePath === undefined ? {} : { nodePath: [...shim.nodePath, ...(environment['NODE_PATH'] ?? '').split(':')].filter((entry) => entry !== '').join(':') };
  const lines = text.split('\n');
  const home = environment.HOME ?? os.homedir();
  const operands = { languages: interpreterOperands(text), runs: typescriptOperands(text), jsx: jsxOperands(text) };
  // $0 and BASH_SOURCE are the script as it is run (a linked script's link); a sourced file's $0 is its sourcer's, and
  // only bash has a BASH_SOURCE (script-invocation.ts).
  const shell = scriptShell(text, runAs, file, invocation);
  if (shell.handsOnFunctions === true) unresolved.push(`${file}: it may hand the functions of the script that sources it to a new bash, where their $0 is not that script's`);
  const place = { workingDirectory: base, environment, isPlainFolder, realFolder, repositoryTop: repositoryTopOf(base, tops) };
  // The functions the script may have: what a file it sources, or one it only names, runs with (script-invocation.ts).
  const defined: DefinedCommands = {};
  for (const word of scriptWords(text, { ...shell, ...place, readSourced: sourcedFileReader(shell, place) }, defined)) {
    if (word.kind === 'unresolved') {
      // The first line that spells it (the words of a script carry no line of their own).
      const index = lines.findIndex((line) => line.includes(word.text) || word.text.split(/[\s/]+/u).some((piece) => piece.length > 1 && line.includes(piece)));
      const line = (lines[index] ?? '').trim();
      const at = index === -1 ? file : `${file} line ${index + 1} (${line.length > 80 ? `${line.slice(0, 77)}...` : line})`;
      unresolved.push(`${at}: it names ${JSON.stringify(word.text.length > 80 ? `${word.text.slice(0, 77)}...` : word.text)}, and ${word.why.replace('when git runs it', 'when the script runs')}`);
      continue;
    }
    const name = word.anchor === 'home' ? path.join(home, word.text) : word.text;
    const runsIn = word.movedTo === undefined ? undefined : word.movedTo.anchor === 'home' ? path.join(home, word.movedTo.text) : word.movedTo.text;
    const shimRun = shim !== undefined && word.runs === true ? { nodeBin: true as const } : {};
    // A script only named (`load lib.sh`, a function that sources its argument) may be sourced: it may share this shell.
    const onward = word.runs === true ? invocationOf(word, shell, defined.commands) : invocationOf({}, shell, defined.commands);
    named.push({
      name,
      as: word.tree ? 'tree' : 'words',
      by: file,
      runBy,
      ...runFields(word.runs === true, operands, name),
      ...(runsIn === undefined ? {} : { runsIn }),
      ...nodePath,
      ...shimRun,
      ...(onward === undefined ? {} : { invocation: onward }),
    });
  }
  // Names run through node_modules/.bin (npx, npm exec, a PATH holding it; husky v9 puts it on every hook's PATH).
  const husky = [file, runAs].some((each) => each.split(path.sep).includes('.husky'));
  const sourceDirectory = shell.sourceFile === undefined ? {} : { sourceDirectory: path.dirname(shell.sourceFile) };
  return [...named, ...nodeBinNamed(text, base, file, runBy, unresolved, { pathHasBin: husky, scriptDirectory: shell.scriptDirectory, ...sourceDirectory, environment, homeDirectory: home })];
}

/**
 * The node_modules/.bin entries `text` runs by name (node-bin-runs.ts), looked up from each directory it may run in,
 * written out as a script's run words; a name it cannot place is unresolved.
 */
function nodeBinNamed(text: string, base: string, by: string, runBy: string, unresolved: string[], context: Omit<NodeBinContext, 'workingDirectory'> & BinRunner): Named[] {
  const reading = nodeBinReading(text, { workingDirectory: path.resolve(base), ...context });
  for (const why of reading.unresolved) unresolved.push(`${by}: ${why}`);
  const places = new Set([...reading.runs.flatMap(({ name, directories }) => directories.flatMap((directory) => nodeBinPlaces(name, directory))), ...(reading.bins ?? [])]);
  // A package spec npx runs: its package.json (data npm reads: protected, read as words), its bins' files, and each
  // bin by name on node_modules/.bin.
  const manifests = new Set<string>();
  for (const { name, directories } of reading.packages)
    for (const directory of directories) {
      const found = packageBins(name, directory, context.homeDirectory);
      if (found.unresolved !== undefined) unresolved.push(`${by}: ${found.unresolved}`);
      for (const place of [...found.places, ...found.bins.flatMap((bin) => nodeBinPlaces(bin, directory))]) (path.basename(place) === 'package.json' ? manifests : places).add(place);
    }
  // The workspace files that list the packages a name runs in: protected as they are, not read on (asLink).
  const files = [
    ...(reading.files ?? []).map((file) => ({ name: file, as: 'link' as const, by, runBy: `${runBy}; it lists the workspace packages a name run in them is looked up from` })),
    ...(reading.yarnFiles ?? []).map((file) => ({ name: file, as: 'link' as const, by, runBy: `${runBy}; yarn runs it as code (its configuration, release, plugins, Plug'n'Play runtime)` })),
    // A dependency's bin under Plug'n'Play: the folders of installed code it lies in, protected whole, not read.
    ...(reading.installed ?? []).map((folder) => ({ name: folder, as: 'tree' as const, by, runBy: `${runBy}; yarn runs a dependency's bin from the installed code it holds (Plug'n'Play)` })),
  ];
  // lint-staged run by name (or npx's spec) reads package.json's "lint-staged" key from where it runs: its commands.
  const lintStaged = [...reading.runs, ...reading.packages].filter(({ name }) => specPackageName(name) === 'lint-staged');
  const configs = context.lintStaged === true ? [] : lintStaged.flatMap(({ directories }) => directories.flatMap((directory) => packageConfigs(directory)));
  const environment = context.environment ?? {};
  const commands = [...new Map(configs.map((config) => [config.file, config])).values()].flatMap(({ file, text }) =>
    packageCommands(text).map((command) => ({ file, command, by: `${file} line ${command.line + 1} ("lint-staged")` })),
  );
  return [
    ...commands.flatMap(({ file, command, by: at }) =>
      shellTextNames(command.text, file, path.dirname(file), at, `${runBy}; lint-staged runs it with node_modules/.bin first on PATH`, unresolved, environment, LINT_STAGED),
    ),
    ...[...manifests].map((manifest) => ({ name: manifest, as: 'words' as const, by, runBy })),
    ...[...places].map((place) => ({ name: place, as: 'words' as const, by, runBy, runs: true, nodeBin: true as const })),
    ...files,
    ...packageManagerConfigNames(text, base, by, runBy, unresolved, context),
  ];
}

/** How a runner runs shell text: with node_modules/.bin on PATH; `lintStaged`: as lint-staged's command (its configuration is not read again). */
interface BinRunner {
  readonly pathHasBin?: boolean;
  readonly lintStaged?: true;
}
const LINT_STAGED: BinRunner = { pathHasBin: true, lintStaged: true };

/** Settings whose value is shell text a tool runs through a shell: lefthook's and mise's `run`, pre-commit's `entry`, a task's `command`, mise's hooks. */
const SHELL_TEXT_KEYS = 'run|entry|command|cmd|initializeCommand|enter|leave';

/** One settings string as its format spells it: JSON's and TOML's "...", YAML's '...' ('' a quote), or plain. */
function settingString(raw: string): string {
  const value = raw.trim();
  if (value.startsWith('"')) {
    try {
      return JSON.parse(value.replace(/^("(?:[^"\\]|\\.)*")[\s\S]*$/u, '$1')) as string;
    } catch {
      return value.slice(1, value.lastIndexOf('"') > 0 ? value.lastIndexOf('"') : undefined);
    }
  }
  if (value.startsWith("'")) return value.slice(1, value.lastIndexOf("'") > 0 ? value.lastIndexOf("'") : undefined).replace(/''/gu, "'");
  return value.replace(/\s+#.*$/u, '');
}

/**
 * The shell text of a setting that holds one (lefthook `run: for f in tools/*.sh; do sh "$f"; done`, pre-commit
 * `entry: bash -c '…'`, a VS Code shell task's "command", mise's `run = "…"`), with the line it starts on: JSON and TOML
 * strings, YAML plain, quoted and block (| >) scalars. The tools' own templates (${file}, lefthook's {staged_files})
 * are the user's files, handed as arguments: read as a plain word.
 */
function settingShellTexts(text: string): { readonly text: string; readonly index: number }[] {
  const found: { text: string; index: number }[] = [];
  const lines = text.split('\n');
  const keyed = new RegExp(String.raw`^(\s*)(?:-\s+)?"?(?:${SHELL_TEXT_KEYS})"?\s*[:=]\s*(.*)$`, 'u');
  const jsonKeyed = new RegExp(String.raw`"(?:${SHELL_TEXT_KEYS})"\s*:\s*("(?:[^"\\]|\\.)*")`, 'gu');
  const plain = (value: string) => value.replace(/\$\{(?!env:)[A-Za-z]+(?::[^}]*)?\}|\{[a-z_]+\}|\{[0-9]+\}/gu, 'tool-argument');
  for (const [index, line] of lines.entries()) {
    // JSON, anywhere on the line (a settings file on one line).
    for (const json of line.matchAll(jsonKeyed)) found.push({ text: plain(settingString(json[1]!)), index });
    const match = keyed.exec(line);
    if (match === null || (match[2]!.startsWith('"') && line.trim().startsWith('"'))) continue;
    const [, indent, rest] = match;
    let value: string;
    if (/^[|>][-+0-9]*\s*$/u.test(rest!)) {
      // A block scalar: the lines indented past the key.
      const block: string[] = [];
      for (let next = index + 1; next < lines.length && (lines[next]!.trim() === '' || lines[next]!.search(/\S/u) > indent!.length); next++) block.push(lines[next]!);
      value = block.join('\n');
    } else if (/^"""/u.test(rest!))
      value = lines
        .slice(index)
        .join('\n')
        .replace(/^[^"]*"""\n?/u, '')
        .replace(/"""[\s\S]*$/u, '');
    else if (/^\[/u.test(rest!)) value = [...rest!.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'/gu)].map((m) => settingString(m[0])).join('\n');
    else value = settingString(rest!.replace(/,\s*$/u, ''));
    if (value.trim() !== '') found.push({ text: plain(value), index });
  }
  return found;
}

/** The words of a settings file's shell texts, read by the shell's grammar as a script's are, where the tool runs them. */
function settingShellNames(
  file: string,
  text: string,
  base: string,
  runBy: string,
  unresolved: string[],
  environment: Readonly<Record<string, string | undefined>>,
  where: (index: number, what: string) => string,
): Named[] {
  return settingShellTexts(text.replace(WORKSPACE_VARIABLES, '.')).flatMap((shell) => shellTextNames(shell.text, file, base, where(shell.index, ''), runBy, unresolved, environment));
}

/**
 * The words of one shell text a tool runs, read by the shell's grammar as a script's are where the tool runs it, and
 * the names it runs through node_modules/.bin (`pathHasBin`: the tool puts node_modules/.bin first on its PATH).
 */
function shellTextNames(
  shell: string,
  file: string,
  base: string,
  by: string,
  runBy: string,
  unresolved: string[],
  environment: Readonly<Record<string, string | undefined>>,
  runner: BinRunner = {},
): Named[] {
  const named: Named[] = [];
  const home = environment.HOME ?? os.homedir();
  const operands = { languages: interpreterOperands(shell), runs: typescriptOperands(shell), jsx: jsxOperands(shell) };
  // The tool runs it with `sh -c`: $0 is the shell's name, whose directory is the current one; no BASH_SOURCE. A file
  // it sources or runs with a shell is read so (script-invocation.ts): there, $0 names no file.
  const own = { scriptDirectory: '.', shell: 'sh' };
  const place = { workingDirectory: base, environment, isPlainFolder, realFolder, repositoryTop: repositoryTopOf(base, []) };
  const defined: DefinedCommands = {};
  for (const word of scriptWords(shell, { ...own, ...place, readSourced: sourcedFileReader(own, place) }, defined)) {
    if (word.kind === 'unresolved') {
      unresolved.push(`${by}: the tool runs it through a shell, and it names ${JSON.stringify(word.text.length > 80 ? `${word.text.slice(0, 77)}...` : word.text)}, which ${word.why}`);
      continue;
    }
    const invocation = word.runs === true ? invocationOf(word, own, defined.commands) : invocationOf({}, own, defined.commands);
    named.push({
      name: word.anchor === 'home' ? path.join(home, word.text) : word.text,
      as: word.tree ? 'tree' : 'words',
      by,
      runBy,
      ...runFields(word.runs === true, operands, word.text),
      ...(invocation === undefined ? {} : { invocation }),
    });
  }
  named.push(...nodeBinNamed(shell, base, by, runBy, unresolved, { environment, homeDirectory: home, ...runner }));
  return named;
}

/** A run word's fields: that it runs, and the language of the interpreter whose operand it is. */
function runFields(
  runs: boolean,
  operands: { readonly languages: ReadonlyMap<string, ProgramLanguage>; readonly runs: ReadonlyMap<string, TypescriptRun>; readonly jsx: ReadonlySet<string> },
  name: string,
): { runs?: true; language?: ProgramLanguage; typescript?: TypescriptRun; jsx?: true } {
  if (!runs) return {};
  const language = operandLanguage(operands.languages, name);
  const typescript = operandRun(operands.runs, name);
  const jsx = isOperand(operands.jsx, name);
  return { runs, ...(language === undefined ? {} : { language }), ...(typescript === undefined ? {} : { typescript }), ...(jsx ? { jsx: true as const } : {}) };
}

/**
 * How a file a script runs is read: by its #! line; else by the interpreter that runs it (its operand is that
 * language's program code) or its name (program code: .py, .js, .ts...); else a shell script, by the shell's grammar,
 * where a shell runs it (`runs`, or a shell's name). Never the shell's grammar for program code: its imports are read.
 */
function readingOf(file: string, runs: boolean, language?: ProgramLanguage): 'script' | 'words' | 'program' | undefined {
  const head = Buffer.alloc(256);
  let length = 0;
  // A linked file is what it leads to (a link zotbox cannot follow is reported where it is read).
  const resolved = isLink(file) ? resolveCanonicalPath(file) : undefined;
  const at = resolved?.ok === true && resolved.exists ? resolved.path : file;
  try {
    const fd = openSync(at, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    try {
      length = readSync(fd, head, 0, head.length, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    return 'words'; // read (and reported) as words: readFile says what it could not read
  }
  const start = head.subarray(0, length);
  if (start.includes(0)) return undefined; // a compiled program: no words to read
  // `#!/usr/bin/env -S LC_ALL=C bash -e`: env's program is past its options and assignments.
  const program = shebangProgramOf(start.toString('latin1'));
  if (program !== undefined) {
    return /^(sh|bash|dash|zsh|ksh|mksh|ash)$/u.test(program) ? 'script' : 'words';
  }
  if (language !== undefined) return 'program';
  if (PROGRAM_FILE.test(file) || PROGRAM_FILE.test(at)) return 'words';
  return runs || /\.(sh|bash|zsh|ksh)$/iu.test(file) ? 'script' : 'words';
}

/**
 * An entry's own stats, or undefined where there is none: a missing name, or a name below a file (`README.md/x`, which
 * a tool file may name: nothing is there). Any other failure throws, and the caller refuses (closed world).
 */
function entryStats(entry: string): Stats | undefined {
  try {
    return lstatSync(entry, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** What one file names, and what in it zotbox cannot read. */
function readFile(
  file: string,
  as: Reading,
  base: string,
  runBy: string,
  unresolved: string[],
  environment: Readonly<Record<string, string | undefined>>,
  directory = path.dirname(file),
  tops: readonly string[] = [],
  typescript?: TypescriptRun,
  runAs = file,
  invocation?: ScriptInvocation,
  loaded = false,
  runner: ProgramRunner = {},
): Named[] {
  const text = readSmallFile(file);
  if (text === undefined) {
    if (entryStats(file) !== undefined) unresolved.push(`${file} exists but cannot be read`);
    return [];
  }
  if (text === OVERSIZED) {
    unresolved.push(`${file} is larger than zotbox reads`);
    return [];
  }
  const named: Named[] = [];
  const lines = text.split('\n');
  const whereAt = (index: number, what: string) => {
    const line = (lines[index] ?? '').trim();
    return `${file} line ${index + 1} (${line.length > 80 ? `${line.slice(0, 77)}...` : line})${what}`;
  };
  if (as === 'script') return readScript(file, text, base, runBy, unresolved, environment, runAs, invocation, tops);
  if (as === 'words' || as === 'program') {
    // The text as the tool reads it: its format's escapes spelled out ("sh \"tools/run.sh\"", "tools\u002frun", &#47;).
    const decoded = decodeEscapes(text);
    // Each word, where the commands run: the base, and every directory a cwd or cd names; in program code, also from
    // the program's own directory (where a link to it lies, too): `path.join(__dirname, "plug.js")`,
    // `new URL("./plug.mjs", import.meta.url)`, and what it joins on its own location (program-relative-names.ts).
    const program = as === 'program' || isProgramCode(file, text);
    // Its folder as named and where it really lies: through a folder link (`scripts -> vendor/tools`), node's
    // __dirname and Perl's FindBin are the real one, and the kernel walks `scripts/..` to its parent; a lexical
    // join (os.path.normpath) climbs out of the named one. Both are read.
    const own = program ? [...new Set([path.dirname(file), path.dirname(runAs), path.dirname(canonicalOf(file))])] : [];
    // A name with a `..` after a folder is walked through that folder, which may become a link (lexical-climb.ts); a
    // program's climb out of its own folder (on the way to the program, protected) is the one allowed.
    const climbs = (name: string, index: number) => {
      if (!climbsOutsideOwn(name, own.filter(isPlainFolder))) return false;
      unresolved.push(`${whereAt(index, '')}: it names ${JSON.stringify(name.length > 80 ? `${name.slice(0, 77)}...` : name)}, and ${CLIMB_REASON}`);
      return true;
    };
    const directories = ['', ...workingDirectories(decoded, runAs, whereAt, unresolved), ...own];
    // A literal written absolute ("/plug.js") counts below the program's own directory as well: it is what a program
    // glues on a name it bound to that directory (`const here = __dirname; require(here + "/plug.js")`).
    // A program's text with its string escapes spelled out as JavaScript reads them (`"./li\x6et.mjs"`): read too.
    const unescapedLines = (program ? jsUnescaped(decoded) : decoded).split('\n');
    for (const [index, line] of decoded.split('\n').entries())
      for (const word of program ? [...new Set([line, unescapedLines[index] ?? '', ...asUrlPaths(line), ...asUrlPaths(unescapedLines[index] ?? '')].flatMap(lineWords))] : lineWords(line))
        for (const directory of climbs(word, index) ? [] : path.isAbsolute(word) ? ['', ...own] : directories)
          named.push({ name: path.join(directory, word), as: 'words', by: whereAt(index, ''), runBy });
    for (const { text: relative, line } of program ? programRelativeNames(decoded) : [])
      for (const directory of climbs(relative, line) ? [] : own) named.push({ name: path.join(directory, relative), as: 'words', by: whereAt(line, ''), runBy });
    for (const name of grammarNames(decoded))
      for (const directory of climbs(name.text, name.line) ? [] : path.isAbsolute(name.text) ? [''] : directories)
        named.push({ name: path.join(directory, name.text), as: name.tree ? 'tree' : 'words', by: whereAt(name.line, ''), runBy });
    for (const { name, as: kind, runs, index } of toolKeyNames(decoded, path.relative(base, file), whereAt, unresolved))
      named.push({ name, as: kind, by: whereAt(index, ''), runBy: 'the tool puts it on PATH, sources it or runs the scripts in it', ...(runs ? { runs } : {}) });
    named.push(...settingShellNames(file, text, base, runBy, unresolved, environment, whereAt));
    // lint-staged's configuration: each command run with node_modules/.bin first on PATH, from the file's directory.
    if (isLintStagedConfig(file))
      for (const command of lintStagedCommands(file, text)) {
        const at = whereAt(command.line, '');
        const lintStagedRuns = `${runBy}; lint-staged runs it with node_modules/.bin first on PATH`;
        // Program code's literals are looked up by name only: its words are read as the program's already.
        if (program) named.push(...nodeBinNamed(command.text, path.dirname(file), at, lintStagedRuns, unresolved, { environment, homeDirectory: environment.HOME ?? os.homedir(), ...LINT_STAGED }));
        else named.push(...shellTextNames(command.text, file, path.dirname(file), at, lintStagedRuns, unresolved, environment, LINT_STAGED));
      }
    // A TypeScript file is read as a TypeScript runner reads it whoever runs it; what a runner runs passes that on to its imports.
    const run = typescript ?? (/\.[cm]?tsx?$/iu.test(file) ? NO_RUN_OPTIONS : undefined);
    const onward = run === undefined ? {} : { typescript: run };
    if (program)
      for (const code of new Set([text, jsUnescaped(text)]))
        for (const { name, tree, index } of programCodeNames(file, code, whereAt, unresolved, runAs === file ? undefined : path.dirname(runAs)))
          named.push({ name, as: tree ? 'tree' : 'words', by: whereAt(index, ''), runBy: `${runBy}; the program loads or runs it`, ...onward });
    // A load whose name the program computes: from the folder it starts in, any file; from nowhere written, any at all.
    // A program of no language its name or #! line tells (`node tools/check`, no extension) is read as node too.
    // The interpreter that runs it decides, whatever its name or #! line says (`node tools/check.py`); where they differ,
    // each reading is made (review s02y).
    if (program && (runner.language === 'node' || (programFileLanguage(file, text) ?? programFileLanguage(runAs, text) ?? 'node') === 'node')) {
      // Read as written: the tokenizer tells a string's escapes from code (an unescaped `\x27` would open a string).
      // bun reads a `.js` file as JSX (run by it, or by its #! line): an element where an operand starts is refused.
      const jsx = !/\.[cm]?ts$/iu.test(file) && (runner.jsx === true || shebangProgramOf(text) === 'bun');
      const loads = nodeComputedLoads(text, { typescript: run !== undefined, jsx });
      // JSX's text and attribute strings follow other rules than JavaScript's (`<p>'</p>`, `"\"`): what code follows
      // them is not read.
      if (/\.[jt]sx$/iu.test(file)) unresolved.push(whereAt(0, ': it is JSX, whose text zotbox does not tell from code, so it cannot tell what the program loads'));
      for (const { folder, line } of loads.folders)
        named.push({ name: path.join(path.dirname(file), folder), as: 'tree', by: whereAt(line, ''), runBy: `${runBy}; the program loads a file it names in this folder` });
      for (const { call, line, why } of loads.unknown)
        unresolved.push(
          whereAt(
            line,
            why === undefined
              ? `: the program loads ${JSON.stringify(call)}, a name it computes, and zotbox cannot tell which file that is`
              : `: at ${JSON.stringify(call)} the program has ${why}, so zotbox cannot tell what code follows or what it loads`,
          ),
        );
    }
    // What its process calls run by name through node_modules/.bin (`execSync("npx acme-lint")`), from where it runs.
    // A command it computes is unresolved where a package runner is in play (program-runner-words.ts).
    const language = program ? (runner.language ?? programFileLanguage(file, text) ?? programFileLanguage(runAs, text)) : undefined;
    // Perl's modules it uses, from each directory it names (its `use lib`, whatever the spelling) and its own: read in
    // turn, for what they load and name (a module's `$0` and FindBin are the main program's).
    if (language === 'perl') {
      const folders = new Set([...own, ...named.map((each) => path.resolve(base, each.name)).filter((each) => entryStats(each)?.isDirectory() === true)]);
      for (const match of decoded.matchAll(/^\s*(?:use|require)\s+([A-Z]\w*(?:::\w+)*)(?=[\s;(])/gmu)) {
        const at = whereAt(decoded.slice(0, match.index).split('\n').length - 1, '');
        for (const folder of folders)
          named.push({ name: path.join(folder, `${match[1]!.replace(/::/gu, '/')}.pm`), as: 'words', by: at, runBy: `${runBy}; the program loads it`, runs: true, language: 'perl' });
      }
    }
    // A path built on the program the interpreter was started on (`path.dirname(process.argv[1])`,
    // `require.main.filename`) from a module it loads lies beside that program, which is not this file.
    if (program)
      for (const [index, line] of decoded.split('\n').entries())
        if (MAIN_PROGRAM.some((pattern) => pattern.test(line)) || (/\.pm$/iu.test(file) && /\bFindBin\b/u.test(line)))
          unresolved.push(`${whereAt(index, '')}: it names a path from the program the interpreter was started on, which zotbox does not work out from here`);
    // Python code it loads by a path or module name it computes (runpy, importlib, exec): any file, the agent's too.
    if (program && language === 'python')
      for (const { line, call } of pythonComputedLoads(decoded))
        unresolved.push(
          call.startsWith('import ')
            ? `${whereAt(line, '')}: the program imports ${call.slice('import '.length)}, which runs code by a name or text it is given, which zotbox cannot spell out`
            : `${whereAt(line, '')}: the program loads or runs code by ${call} from a path, module name or text it computes, which zotbox cannot spell out`,
        );
    if (program)
      for (const run of programCommandTexts(text, language, own))
        for (const from of run.ownDirectory === true ? own : [path.resolve(base, run.directory ?? '.')]) {
          named.push(...nodeBinNamed(run.text, from, whereAt(run.line, ''), `${runBy}; the program runs it`, unresolved, { environment, homeDirectory: environment.HOME ?? os.homedir() }));
          // The words of what it runs, spelled out (a constant carried into a join, a cwd option): from where it runs.
          for (const word of run.text.split('\n').flatMap((line) => lineWords(line)))
            if (!climbs(word, run.line)) named.push({ name: path.resolve(from, word), as: 'words', by: whereAt(run.line, ''), runBy: `${runBy}; the program runs it` });
          if (run.computedOperand !== undefined)
            unresolved.push(`${whereAt(run.line, '')}: it gives ${run.computedOperand} an operand the program computes, which zotbox cannot spell out (and ${run.computedOperand} may run it)`);
          // A command the program computes may be any file, the project's own too (`execSync(readFileSync(file))`,
          // `execSync("./" + name)`): it refuses whether or not a package runner is in play (review s08e).
          const inPlay = run.computed === true ? (runnerInPlay(text, language, [from], environment) ?? "it may be any file, the project's own too") : undefined;
          if (inPlay !== undefined) unresolved.push(`${whereAt(run.line, '')}: it runs a command the program computes, which zotbox cannot spell out, and ${inPlay}`);
          for (const file of programRunsOnUserPath(run.text, environment))
            named.push({ name: path.resolve(from, file), as: 'words', by: whereAt(run.line, ''), runBy: `${runBy}; the program runs it by name from a relative entry of the user's PATH`, runs: true });
        }
    if (program)
      for (const { name, index, tree, link, why } of packageSpecifierNames(file, text, whereAt, unresolved, environment))
        named.push({ name, as: link === true ? 'link' : tree === true ? 'tree' : 'words', by: whereAt(index, ''), runBy: `${runBy}; ${why ?? 'node loads it for the program'}`, ...onward });
    if (run !== undefined && program)
      for (const { name, index, why } of typescriptMapNames(file, text, base, run, whereAt, unresolved))
        named.push({ name, as: 'words', by: whereAt(index, ''), runBy: `${runBy}; the TypeScript runner reads it for the program (${why})`, ...onward });
    // A settings file's environment blocks; program code is read by its own grammars (a `BASE_DIR = …` constant is no variable set).
    for (const { entry, index } of program ? [] : pathEntries(decoded, whereAt, unresolved))
      named.push({ name: entry, as: 'tree', by: whereAt(index, ''), runBy: "the tool puts it on PATH: every program in it runs in place of the user's own" });
    // A module a program loads reaches the main program through any read of argv, the module cache or `require`'s own
    // fields, and Perl's and Ruby's `$0` and FindBin: none is this file's place.
    if (program && loaded)
      for (const [index, line] of decoded.split('\n').entries())
        if (LOADED_MAIN_PROGRAM.test(line) || (language === 'python' && LOADED_PYTHON_MAIN_PROGRAM.test(line.replace(MAIN_GUARD, ''))))
          unresolved.push(`${whereAt(index, '')}: a module another program loads names the program the interpreter was started on, which zotbox does not work out from here`);
    return program ? named.map((each) => ({ ...each, loaded: true as const })) : named;
  }
  if (as === 'nix') {
    // What a shellHook runs, run in the directory of the .envrc (`source env.sh`, `sh ${./scripts}/init.sh`): as a script's words.
    for (const hook of shellHooks(text, file)) {
      const directories = ['', ...workingDirectories(hook, file, (_, what) => `${file} (shellHook)${what}`, unresolved)];
      for (const word of hook.split('\n').flatMap((line) => lineWords(line)))
        for (const directory of path.isAbsolute(word) ? [''] : directories) named.push({ name: path.resolve(base, directory, word), as: 'words', by: `${file} (shellHook)`, runBy: DIRENV });
    }
    // Its path literals (./x, ../x), nix files in turn.
    for (const [index, raw] of lines.entries()) {
      for (const literal of raw
        .trim()
        .replace(/#.*$/u, '')
        .match(/(?<![\w./-])\.\.?\/[\w.+/-]*/gu) ?? []) {
        const name = literal.replace(/\/+$/u, '');
        if (name !== '.' && name !== './.' && name !== './') named.push({ name, as: 'nix', by: whereAt(index, ''), runBy });
      }
    }
    return named;
  }
  return [...named, ...environmentFileNames(file, lines, as, { directory, tops }, runBy, whereAt, unresolved)];
}

/**
 * A program's line with each name read as a URL's path: node resolves an ES module's relative specifier, and `new
 * URL(x, import.meta.url)`, as a URL, whose path is percent-decoded (`./%6cint.mjs` loads lint.mjs, `%2e%2e` is `..`)
 * and ends before a query or fragment (`./lint.mjs?v=1`). Its words are read besides the line's own (and refused where
 * they climb).
 */
function asUrlPaths(line: string): string[] {
  // `file:///abs`, `file://localhost/abs` and `file:/abs` are /abs; the URL parser drops a tab or a newline (an escape
  // `\t` in the code, read both as one and as a backslash), and takes a backslash for a slash.
  const url = line.replace(/\bfile:(?:\/\/(?:localhost)?)?(?=\/)/giu, '').replace(/[\t\r\n]/gu, '');
  return [url.replace(/\\[tnr]/gu, ''), url].map((each) =>
    each
      .replace(/\\+/gu, '/')
      .replace(/[?#][^\s"'`]*/gu, '')
      .replace(/%([0-9A-Fa-f]{2})/gu, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
  );
}

/**
 * The program the interpreter was started on, named from a file that may be a module it loads (a path from it lies
 * beside that program, not this file): node's `require.main` (but `require.main === module`), `module.parent`,
 * `process.mainModule` (argv, in a module, refuses by LOADED_MAIN_PROGRAM; in the program itself it is its own); Python's `sys.argv[0]` and `__main__`'s file; Perl's and
 * Ruby's `$0` in a path call (Perl's FindBin in a module, .pm, as well).
 */
const MAIN_PROGRAM = [
  /\brequire\s*\.\s*main\b(?!\s*[!=]==?\s*module\b)|\bmodule\s*\.\s*parent\b|\bprocess\s*\.\s*mainModule\b/u,
  /\bsys\.argv\s*\[\s*0\s*\]|\b__main__\.__file__|\bmodules\s*\[\s*["']__main__["']\s*\]/u,
  /\b(?:dirname|catfile|catdir|abs_path|realpath|rel2abs|expand_path|join)\b[^;\n]*\$(?:0|PROGRAM_NAME)\b|["']\$(?:0|PROGRAM_NAME)\//u,
];

/** In a module a program loads: argv in any spelling, the module cache, `require` or `module` read as a value, `$0`, FindBin. */
const LOADED_MAIN_PROGRAM =
  /(?:\b|_)argv\b|\brequire\s*\.\s*cache\b|(?:=|\(|,)\s*require\s*(?![\s(.]|$)|\}\s*=\s*(?:require|module)\b|=\s*(?:require|module)\s*(?:;|$)|\$(?:0|PROGRAM_NAME)\b|\bFindBin\b/u;

/**
 * In a Python module a program loads, more ways to the main program: the `__main__` module under any name (but the
 * `if __name__ == "__main__":` guard), another module's `__file__`, `__spec__`, `__loader__` or `__cached__`, and the
 * call stack (inspect's `stack()`/`trace()`, frames and their `f_back`, traceback's `extract_stack`), whose outermost
 * frame is the main program's.
 */
const LOADED_PYTHON_MAIN_PROGRAM =
  /\b__main__\b|\.\s*__(?:file|spec|loader|cached)__\b|["']__(?:file|spec|loader|cached)__["']|\b(?:_getframe|_current_frames|currentframe|getouterframes|getinnerframes|extract_stack|walk_stack|format_stack|print_stack|f_back|getframeinfo)\b|\binspect\b.*\b(?:stack|trace)\b|\b(?:stack|trace)\s*\(/u;

/** The `__name__ == "__main__"` guard (either way round), which names no file. */
const MAIN_GUARD = /\b__name__\s*[!=]=\s*(["'])__main__\1|(["'])__main__\2\s*[!=]=\s*__name__\b/gu;

/**
 * `text` with JavaScript's string escapes spelled out where they can change a name: `\xHH`, `\u{H…}` (leading zeros unlimited), sloppy mode's
 * octal `\154`, a line continuation (after LF, CR LF, CR, U+2028 or U+2029), and an escape of a plain character (`\i`).
 */
function jsUnescaped(text: string): string {
  return (
    text
      .replace(/\\(?:\r\n|[\n\r\u2028\u2029])/gu, '')
      .replace(/\\x([0-9A-Fa-f]{2})|\\u\{0*([0-9A-Fa-f]{1,6})\}/gu, (written, short: string | undefined, long: string | undefined) => {
        const code = Number.parseInt(short ?? long!, 16);
        return code <= 0x10ffff ? String.fromCodePoint(code) : written;
      })
      // Sloppy mode's octal escapes (`\154`), then an escaped plain character.
      .replace(/\\([0-3][0-7]{0,2}|[4-7][0-7]?)/gu, (written, octal: string) => (octal === '0' ? written : String.fromCharCode(Number.parseInt(octal, 8))))
      .replace(/\\([^\\nrtbfv0xu'"`\n])/gu, '$1')
  );
}

/**
 * The regular files of a tool entry (the entry itself, or what a tool directory holds), at most `budget`: each where
 * it lies (`file`) and by the name the tool runs it (`runAs`: through a link, the link; its $0).
 */
function filesOf(entry: string, spelled: string, budget: { left: number }, unresolved: string[]): { file: string; runAs: string }[] {
  const stats = entryStats(entry);
  if (stats === undefined || stats.isSymbolicLink()) return [];
  if (stats.isFile()) return [{ file: entry, runAs: spelled }];
  if (!stats.isDirectory()) return [];
  const files: { file: string; runAs: string }[] = [];
  const visit = (directory: string, runAs: string) => {
    let names: string[];
    try {
      names = readdirSync(directory);
    } catch {
      unresolved.push(`${directory} cannot be listed`);
      return;
    }
    for (const name of names) {
      if (IDE_STATE.test(`${path.join(directory, name)}/`)) continue;
      if (budget.left-- <= 0) {
        unresolved.push(`${entry} holds more files than zotbox reads for the paths they name`);
        return;
      }
      const full = path.join(directory, name);
      const named = path.join(runAs, name);
      const child = entryStats(full);
      if (child?.isFile() === true) files.push({ file: full, runAs: named });
      else if (child?.isSymbolicLink() === true) {
        // A linked file is run where it leads (husky's hook linked to a shared one): read that file.
        // A linked directory is read where it leads too (within the budget, which also ends a cycle).
        const resolved = resolveCanonicalPath(full);
        const real = resolved.ok ? resolved.path : undefined;
        const target = real === undefined ? undefined : entryStats(real);
        if (target?.isFile() === true) files.push({ file: real!, runAs: named });
        else if (target?.isDirectory() === true) visit(real!, named);
      } else if (child?.isDirectory() === true) visit(full, named);
    }
  };
  visit(entry, spelled);
  return files;
}

/** A file that runs as a program or a shell script: executable, or named like a script. */
function isScript(file: string): boolean {
  const resolved = isLink(file) ? resolveCanonicalPath(file) : undefined;
  const stats = resolved === undefined ? entryStats(file) : resolved.ok && resolved.exists ? entryStats(resolved.path) : undefined;
  return stats?.isFile() === true && ((stats.mode & 0o111) !== 0 || /\.(sh|bash|zsh|ksh|fish|ps1|py|rb|pl|[cm]?jsx?|[cm]?tsx?)$/iu.test(file));
}

/** Where a tool file's reading starts: its entry's files, each read as its kind is. */
interface Pending {
  readonly file: string;
  readonly as: Reading;
  readonly base: string;
  readonly runBy: string;
  /** How many words files lie between the tool file and this one (a script a task names is read, what that names is not, unless it is run). */
  readonly depth: number;
  /** Where the tool runs it, when that is not the file's own directory (an .envrc linked elsewhere runs where the link is). */
  readonly directory?: string;
  /** The TypeScript runner that runs it, a program file it imports being run by it too. */
  readonly typescript?: TypescriptRun;
  /** The NODE_PATH a shim exported for it (Named), passed on to what it loads and runs. */
  readonly nodePath?: string;
  /** Run through node_modules/.bin (Named): where it lies in an installed package, protected but not read. */
  readonly nodeBin?: true;
  /** A startup file's language (Named): its loading directives are read besides its words. */
  readonly startup?: StartupLanguage;
  /** How the shell that reads it starts (Named). */
  readonly invocation?: ScriptInvocation;
  /** The name the tool runs it by, where that is not `file` (a file reached through a link): its $0. */
  readonly runAs?: string;
  /** Named by a program's code (Named): the program the interpreter was started on is another file. */
  readonly loaded?: true;
  /** The interpreter that runs it, as its operand (Named): its reading, whatever the file's name or #! line says. */
  readonly runner?: ProgramRunner;
}

/** The interpreter a file is an operand of: its language, and whether it reads JavaScript as JSX (bun). */
interface ProgramRunner {
  readonly language?: ProgramLanguage;
  readonly jsx?: true;
}

/** What the user's environment holds, and where git runs each repository's hooks (control-locations.ts). */
export interface ToolFileContext {
  readonly environment?: Readonly<Record<string, string | undefined>>;
  readonly hookDirectories?: readonly HookDirectory[];
}

const HOOK_RUN_BY = "the user's git runs it as a hook, and the hook runs what it names";

/**
 * The hooks in a hooks directory (not git's *.sample files), read as the scripts they are, from the worktree top; a
 * linked hook where it leads. Where a link leads, made or not yet, is protected by link-targets.ts.
 */
function hookFiles({ directory, top }: HookDirectory, unresolved: string[]): Pending[] {
  let names: string[];
  try {
    names = readdirSync(directory);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') unresolved.push(`the hooks directory ${directory} cannot be listed (${code ?? 'error'})`);
    return [];
  }
  const hooks: Pending[] = [];
  for (const name of names.filter((n) => !n.endsWith('.sample') && !n.startsWith('.'))) {
    // A linked hook runs what the link leads to (read there by the loop), with the link as its $0.
    const hook = path.join(directory, name);
    const resolved = resolveCanonicalPath(hook);
    const file = resolved.ok ? resolved.path : hook;
    const stats = entryStats(file);
    if (stats?.isFile() !== true) continue;
    const as = readingOf(file, true);
    if (as === undefined) unresolved.push(`the hook ${file} is a compiled program, and zotbox cannot read which files it runs`);
    // A file git runs by no hook name (a hooks' library, `lib.sh`) is there for the hooks to source: it may share a
    // hook's shell (script-invocation.ts).
    else hooks.push({ file: hook, as, base: top, runBy: HOOK_RUN_BY, depth: 0, ...(GIT_HOOK_NAMES.has(name) ? {} : { invocation: { sharesShell: true } }) });
  }
  return hooks;
}

/** The names git runs a hook by (githooks(5)). */
const GIT_HOOK_NAMES = new Set([
  'applypatch-msg',
  'pre-applypatch',
  'post-applypatch',
  'pre-commit',
  'pre-merge-commit',
  'prepare-commit-msg',
  'commit-msg',
  'post-commit',
  'pre-rebase',
  'post-checkout',
  'post-merge',
  'pre-push',
  'pre-receive',
  'update',
  'proc-receive',
  'post-receive',
  'post-update',
  'reference-transaction',
  'push-to-checkout',
  'pre-auto-gc',
  'post-rewrite',
  'sendemail-validate',
  'fsmonitor-watchman',
  'p4-changelist',
  'p4-prepare-changelist',
  'p4-post-changelist',
  'p4-pre-submit',
  'post-index-change',
]);

/** The files of the tool entries found, each with how it is read: .envrc as direnv code, husky's hooks as scripts, the rest as words. */
function entryFiles(toolEntries: readonly string[], budget: { left: number }, unresolved: string[]): Pending[] {
  const pending: Pending[] = [];
  for (const entry of toolEntries) {
    const isEnvrc = path.basename(entry).toLowerCase() === '.envrc';
    const startup = startupLanguage(path.basename(entry));
    if (!isEnvrc && !WORDS_ENTRIES.test(path.basename(entry)) && startup === undefined) continue;
    const husky = path.basename(entry).toLowerCase() === '.husky';
    // A tool file that is a link is read where it leads, wherever that is (the tool reads that), and run where the link
    // is: what it names is protected where it lies in the scopes. A link zotbox cannot follow is unresolved.
    const real = resolveCanonicalPath(entry);
    const linked = entryStats(entry)?.isSymbolicLink() === true;
    if (linked && !real.ok) {
      unresolved.push(`${entry} is a link zotbox cannot follow, and the tool reads what it leads to`);
      continue;
    }
    for (const { file, runAs } of filesOf(real.ok ? real.path : entry, entry, budget, unresolved).filter((f) => !IDE_STATE.test(f.file))) {
      // A husky hook is a shell script run at the top of the repository (the directory that holds .husky).
      const as: Reading = isEnvrc ? 'direnv' : husky && !path.basename(file).startsWith('.') ? (readingOf(file, true) ?? 'words') : 'words';
      const runsIn = isEnvrc ? path.dirname(entry) : undefined;
      pending.push({
        file,
        as,
        base: runsIn ?? path.dirname(entry),
        runBy: 'the tool that runs it on its own runs what it names',
        depth: 0,
        ...(runsIn !== undefined && runsIn !== path.dirname(file) ? { directory: runsIn } : {}),
        ...(startup === undefined ? {} : { startup }),
        ...(runAs === file ? {} : { runAs }),
      });
    }
  }
  return pending;
}

/** Python virtual environments among the entries: activation puts all of a venv's bin/ first on PATH. */
function venvBins(entry: string): string[] {
  const name = path.basename(entry).toLowerCase();
  if (name === 'pyvenv.cfg') return ['bin', 'Scripts'].map((bin) => path.join(path.dirname(entry), bin));
  return name === 'activate' && /^(bin|scripts)$/iu.test(path.basename(path.dirname(entry))) ? [path.dirname(entry)] : [];
}

/**
 * What the protected tool files name inside the write scopes: those among `toolEntries` (in the scopes), those in the
 * directories above them (enclosing-tool-entries.ts), and the hooks git runs for the repositories in and around them.
 */
export function toolFileReferences(toolEntries: readonly string[], writeRoots: readonly string[], context: ToolFileContext = {}): ToolFileReferences {
  const unresolved: string[] = [];
  const locations = new Map<string, ControlLocation>();
  const read = new Set<string>();
  const budget = { left: MAX_FILES };
  const environment = context.environment ?? {};
  // The repositories found in and around the scopes: git-environment-config.ts takes relative names from their tops.
  const tops = [...new Set((context.hookDirectories ?? []).map((hooks) => hooks.top))];
  const inScopes = (p: string) => writeRoots.some((root) => isInsideRoot(p, root));
  // Granted when a write scope names the path or lies inside it (as for tool files).
  const granted = (p: string) => writeRoots.some((root) => isInsideRoot(root, p));
  const setLocation = (location: ControlLocation) => {
    // A directory on PATH covers what it holds: it wins over the same path named as a file. A directory's module
    // entries are kept apart (what several interpreters import there, together).
    const key = location.modules === undefined ? location.path : `\u0000modules:${location.path}`;
    const known = locations.get(key);
    if (known === undefined || (location.tree && !known.tree)) locations.set(key, location);
    else if (location.modules !== undefined) locations.set(key, withModuleEntries(known, location));
  };
  const lookup = { searchPath: environment.PATH, writeRoots, environment };
  const pythonPath = pathImportResolver(lookup);
  for (const entry of toolEntries) {
    if (!inScopes(entry)) continue;
    // A Python virtual environment (pyvenv.cfg; an activation script in bin/ for older ones): activation, which editors
    // do in every terminal they open, puts all of its bin/ first on PATH, so every program there runs as the user's own.
    for (const bin of venvBins(entry))
      if (!granted(bin))
        setLocation({
          path: bin,
          tree: true,
          reason: `the bin/ of the virtual environment at ${path.dirname(bin)}; activating it (editors do in every terminal they open) puts every program in it first on PATH`,
        });
    // A file the tool reads beside its protected configuration (aider's .env): protected and read as the configuration is.
    for (const companion of startupCompanions(entry))
      if (!granted(companion)) setLocation({ path: companion, tree: false, reason: `beside ${entry}; the tool reads its options from it as from that file` });
  }
  const enclosing = enclosingToolEntries(writeRoots, environment.HOME ?? os.homedir(), (name) => name.toLowerCase() === '.envrc' || WORDS_ENTRIES.test(name) || startupLanguage(name) !== undefined);
  for (const directory of enclosing.unreadable) unresolved.push(`${directory} (above a write scope) cannot be listed for the tool files there`);
  const pending: Pending[] = [
    ...entryFiles(
      toolEntries.filter((entry) => inScopes(entry)),
      budget,
      unresolved,
    ),
    ...entryFiles(enclosing.entries, budget, unresolved),
    ...(context.hookDirectories ?? []).flatMap((hooks) => hookFiles(hooks, unresolved)),
    ...toolEntries
      .filter((entry) => inScopes(entry))
      .flatMap((entry) => startupCompanions(entry).map((file) => ({ file, as: 'words' as const, base: path.dirname(entry), runBy: 'the tool that runs it on its own runs what it names', depth: 0 }))),
  ];
  while (pending.length > 0) {
    const { file: pendingFile, as, base, runBy, depth, directory, typescript, nodePath, nodeBin, startup, invocation, runAs, loaded, runner } = pending.shift()!;
    const inherited = nodePath === undefined ? {} : { nodePath };
    // Read once for each place its words are taken from: hooks that run at two worktree tops name two sets of files.
    const key = `${as}:${base}:${typescript === undefined ? '' : `typescript ${JSON.stringify(typescript)}:`}${nodePath === undefined ? '' : `NODE_PATH ${nodePath}:`}${nodeBin === true ? '.bin:' : ''}${startup === undefined ? '' : `${startup}:`}${invocation === undefined || as !== 'script' ? '' : `${JSON.stringify(invocation)}:`}${runAs === undefined ? '' : `as ${runAs}:`}${runner === undefined ? '' : `by ${JSON.stringify(runner)}:`}${pendingFile}`;
    if (read.has(key)) continue;
    read.add(key);
    if (read.size > MAX_FILES) {
      unresolved.push(`${pendingFile}: the tool files name more files than zotbox reads`);
      break;
    }
    // A file that is a link is read where it leads, as the tool runs it there (linked-programs.ts): each hop protected.
    let file = pendingFile;
    if (isLink(pendingFile)) {
      const linked = linkedProgram(pendingFile, runBy, writeRoots);
      if ('unresolved' in linked) {
        unresolved.push(...linked.unresolved);
        continue;
      }
      for (const location of linked.locations) setLocation(location);
      // A link to a directory: protected whole with what it holds (link-targets.ts), no file to read.
      if (entryStats(linked.file)?.isFile() !== true) continue;
      file = linked.file;
    }
    // A bin that is installed code (node-installed-bins.ts): protected where it was named, its code not read.
    if (nodeBin === true && isInstalledPackageFile(pendingFile, canonicalOf(file))) continue;
    // Installed Python code (python-installed-files.ts): protected whole where it lies, its code not read; one a write
    // scope names is the agent's to change, so it is read on.
    const site = installedPythonSite(canonicalOf(file));
    if (site !== undefined && !granted(site)) continue;
    // A sourced direnv file runs in the directory of the name it is sourced by (direnv's source_env pushd's there).
    const runsIn = directory ?? (file === pendingFile || (as !== 'direnv' && as !== 'dotenv') ? undefined : path.dirname(pendingFile));
    const runEnvironment = nodePath === undefined ? environment : { ...environment, NODE_PATH: nodePath };
    const from = as === 'words' || as === 'script' || as === 'program' ? base : (runsIn ?? path.dirname(file));
    const words = readFile(file, as, base, runBy, unresolved, runEnvironment, runsIn, tops, typescript, runAs ?? (file === pendingFile ? undefined : pendingFile), invocation, loaded === true, runner);
    // A shell's startup file is read for what it sources only: its other words are commands the user runs by hand.
    const names = [...(startup === 'shell' ? [] : words), ...(startup === undefined ? [] : startupNamed(file, startup, runBy, unresolved, runEnvironment))];
    for (const found of names.flatMap((each) => withPreloads(each, path.resolve(from, each.name), unresolved, runEnvironment))) {
      const named: Named = { ...inherited, ...found };
      const written = path.resolve(from, named.name);
      // A word no file can be named (a long literal: overlong-names.ts) names nothing: no lookup, nothing to protect.
      if (namesNoFile(written)) continue;
      if (named.as === 'link') {
        if (inScopes(written) && !granted(written)) setLocation({ path: written, tree: false, reason: `named by ${named.by}; ${named.runBy}`, asLink: true });
        continue;
      }
      // A module imported through the interpreter's own path (an editable install's src/): its files (python-path-imports.ts).
      const onPath = pythonPath.read(written, `named by ${named.by}; ${named.runBy}`);
      if (onPath !== undefined) {
        unresolved.push(...onPath.unresolved);
        for (const location of onPath.locations) setLocation(location);
        for (const found of onPath.files)
          pending.push({ file: found, as: 'words', base, runBy: named.runBy, depth: depth + 1, ...inherited, ...(named.loaded === true ? { loaded: true as const } : {}) });
        if (onPath.consumed) continue;
      }
      // A directory on Python's path: the module entries of the names imported there (python-installed-names.ts).
      const entries = moduleEntriesLocation(written, `named by ${named.by}; ${named.runBy}`, lookup);
      if (entries !== undefined) {
        if ('unresolved' in entries) unresolved.push(entries.unresolved);
        else if (inScopes(entries.location.path)) {
          // Under the name written and where it resolves (a linked directory): the gate decides canonical paths.
          const real = resolveCanonicalPath(entries.location.path);
          setLocation(entries.location);
          if (real.ok && real.path !== entries.location.path && inScopes(real.path)) setLocation({ ...entries.location, path: real.path });
        }
        continue;
      }
      const writtenStats = entryStats(written);
      // A directory nix imports is its default.nix; a directory direnv sources is its .envrc, one dotenv loads its .env.
      const inside = named.as === 'nix' ? 'default.nix' : named.as === 'direnv' ? '.envrc' : named.as === 'dotenv' ? '.env' : undefined;
      const target = writtenStats?.isDirectory() === true && inside !== undefined ? path.join(written, inside) : written;
      const targetStats = target === written ? writtenStats : entryStats(target);
      const isDirectory = targetStats?.isDirectory() === true;
      // A variable's path: a file is read as words; a directory, or nothing yet, is protected whole.
      const kind = named.as === 'value' || named.as === 'hooks' ? (targetStats?.isFile() === true ? 'words' : 'tree') : named.as;
      // A hooks directory git configuration names (wherever it lies): each hook is read as the repository's own are.
      if (named.as === 'hooks' && isDirectory) for (const top of named.tops ?? [base]) pending.push(...hookFiles({ directory: target, top }, unresolved));
      // A script run or sourced from outside the scopes, in the project (below where the tool runs it), is read all
      // the same (the monorepo's hook runs the root's scripts, which run the package's): only what lies in the scopes
      // is protected. The system's programs are not the project's.
      if (!inScopes(target) || granted(target)) {
        if ((named.runs === true || named.startup !== undefined) && (targetStats?.isFile() === true || targetStats?.isSymbolicLink() === true) && isInsideRoot(target, base))
          followLoaded(target, named, base, depth, pending);
        // A script only named there (a hook's library a function sources: `load "$(dirname "$0")/lib.sh"`) is read
        // as one that may share the naming script's shell.
        else if (named.invocation?.sharesShell === true && targetStats?.isFile() === true && isScript(target) && isInsideRoot(target, base))
          pending.push({ file: target, as: readingOf(target, false) ?? 'words', base, runBy: named.runBy, depth: depth + 1, invocation: named.invocation });
        continue;
      }
      // A directory a setting names (a working directory, a folder to scan) is not protected: only files, and the
      // directories put on PATH (`tree`), are what a tool runs from.
      if (isDirectory && kind !== 'tree') continue;
      // Under the name written and where it resolves (a linked directory on the way): the gate decides canonical paths.
      const real = resolveCanonicalPath(target);
      for (const at of real.ok && real.path !== target && inScopes(real.path) && !granted(real.path) ? [target, real.path] : [target])
        setLocation({ path: at, tree: kind === 'tree', reason: `named by ${named.by}; ${named.runBy}` });
      // A name that covers a file and a directory of that name (a program's relative import: `./helper.js` is the file
      // or `helper.js/index.js`) is read on where it is a script: what it imports in turn runs too.
      if (isDirectory || (kind === 'tree' && !isScript(target))) continue;
      // Read on: what direnv sources and loads, the .nix files nix evaluates (a file nix names otherwise is a hook's
      // script, read for its words), the files the tool file itself names, any script a script names and any file a
      // script runs or sources (a chain of scripts is followed to its end, within MAX_FILES).
      if (kind === 'nix' && !target.endsWith('.nix')) pending.push({ file: target, as: 'words', base, runBy: named.runBy, depth: 0 });
      else if (kind === 'direnv' || kind === 'dotenv' || kind === 'nix') pending.push({ file: target, as: kind, base, runBy: named.runBy, depth });
      else if (named.runs === true || named.startup !== undefined) followLoaded(target, named, base, depth, pending);
      else if (depth === 0 || isScript(target))
        pending.push({
          file: target,
          as: readingOf(target, false) ?? 'words',
          base,
          runBy: named.runBy,
          depth: depth + 1,
          // A program file a TypeScript runner's program imports is run by that runner too.
          ...(named.typescript !== undefined && PROGRAM_FILE.test(target) ? { typescript: named.typescript } : {}),
          ...(named.nodePath === undefined ? {} : { nodePath: named.nodePath }),
          ...(named.loaded === true ? { loaded: true as const } : {}),
          // A script only named may be sourced by what names it (`load lib.sh`): read so (script-invocation.ts).
          ...(named.invocation === undefined ? {} : { invocation: named.invocation }),
        });
    }
  }
  // A file read twice (run by one script, only named by another, so read as sharing its shell too) says a thing once.
  return { locations: [...locations.values()], unresolved: [...new Set(unresolved)], enclosing: enclosing.entries };
}

/**
 * A name as the loop reads it: a package node preloads by its bare specifier (node-preload-packages.ts) stands for
 * what node loads for it from where the command runs, as for a program's `require(LIT)`; any other name, itself.
 */
function withPreloads(named: Named, written: string, unresolved: string[], environment: Readonly<Record<string, string | undefined>>): Named[] {
  const found = nodePreloadNames(written, (what) => `${named.by}${what}`, unresolved, environment);
  if (found === undefined) return [named];
  return found.map(({ name, tree, link, why }) => ({ name, as: link === true ? 'link' : tree ? 'tree' : 'words', by: named.by, runBy: `${named.runBy}; ${why}` }));
}

/** Where a script a script runs is read from: the directory a `cd` before it moved to, or where the script's words are. */
const runsFrom = (named: Named, base: string) => (named.runsIn === undefined ? base : path.resolve(base, named.runsIn));

/** A file a script runs or sources, read in turn by what it is (a compiled program names nothing zotbox reads). */
function followScript(target: string, named: Named, base: string, depth: number, pending: Pending[]): void {
  const as = readingOf(target, true, named.language);
  if (as !== undefined)
    pending.push({
      file: target,
      as,
      base,
      runBy: named.runBy,
      depth: depth + 1,
      ...(named.typescript === undefined ? {} : { typescript: named.typescript }),
      ...(named.nodePath === undefined ? {} : { nodePath: named.nodePath }),
      ...(named.nodeBin === true || isNodeBinEntry(target) ? { nodeBin: true as const } : {}),
      ...(named.invocation === undefined ? {} : { invocation: named.invocation }),
      ...(named.loaded === true ? { loaded: true as const } : {}),
      ...(named.language === undefined && named.jsx !== true
        ? {}
        : { runner: { ...(named.language === undefined ? {} : { language: named.language }), ...(named.jsx === true ? { jsx: true as const } : {}) } }),
    });
}

/** A file a script runs, or a startup file loads (read as words and by its language's directives, to the end of the chain). */
function followLoaded(target: string, named: Named, base: string, depth: number, pending: Pending[]): void {
  if (named.startup === undefined) followScript(target, named, runsFrom(named, base), depth, pending);
  else pending.push({ file: target, as: 'words', base, runBy: named.runBy, depth: depth + 1, startup: named.startup, ...(named.loaded === true ? { loaded: true as const } : {}) });
}

/** Where `file` canonically lies; itself where zotbox cannot resolve it (then read as named, as before). */
function canonicalOf(file: string): string {
  const resolved = resolveCanonicalPath(file);
  return resolved.ok ? resolved.path : file;
}
