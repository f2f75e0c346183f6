// What ts-node loads besides the program by its own options: the "ts-node" key of each tsconfig of the `extends` chain
// (ts-node 10 merges them, base first) and its command line / environment. `require` modules run before the program,
// `compiler`/`transpiler` are modules it requires, `swc: true` requires @swc/core. Each is resolved as node resolves it
// from the tsconfig's directory (ts-node's createProjectLocalResolveHelper): a path as a file, a package name through
// node_modules (node-preload-packages.ts). `compilerOptions.plugins` loads nothing under typescript's compiler API
// (only tsserver loads plugins), but a "ts-node" compiler other than typescript (ttypescript, ts-patch) loads their
// `transform` modules: that is unresolved. Closed world: a value zotbox cannot read is a problem.

import path from 'node:path';
import { fileCandidates, type MappedName, type Problem, readObject } from './module-map-files.js';
import { nodePreloadName } from './node-preload-packages.js';
import { SWC_MODULES } from './typescript-runners.js';

/**
 * ts-node 10.9's command-line options (bin.ts's arg spec, stopAtPositional): those that take the next word (`--opt=v`
 * is one word), and those that take none. Its command reads `--compiler X` and `--compiler=X` alike: a value read as
 * the program operand would leave the module it loads and the real program unread.
 */
const TS_NODE_VALUED = new Set([
  '-e',
  '--eval',
  '-r',
  '--require',
  '--cwd',
  '--dir',
  '-C',
  '--compiler',
  '-O',
  '--compiler-options',
  '-P',
  '--project',
  '-D',
  '--ignore-diagnostics',
  '-I',
  '--ignore',
  '--transpiler',
  '--scope-dir',
]);
const TS_NODE_FLAGS = new Set([
  ...['-i', '--interactive', '-p', '--print', '-h', '--help', '-s', '--script-mode', '--cwd-mode', '-v', '-vv', '--version', '--show-config', '--esm', '--files'],
  ...['-T', '--transpile-only', '--type-check', '-H', '--compiler-host', '--swc', '--pretty', '--skip-project', '--skip-ignore', '--prefer-ts-exts', '--log-error', '--emit', '--scope'],
]);

/**
 * How ts-node's command takes option `word`: `valued` (the next word is its value), `joined` (`--opt=value`), `flag`,
 * or undefined for one ts-node 10.9 does not have (a later option may take a value: the caller leaves it unresolved).
 * `--camelCase` spellings (`--scopeDir`, `--showConfig`) are read as their `--hyphen-case`.
 */
export function tsNodeOptionKind(word: string): 'valued' | 'joined' | 'flag' | undefined {
  const hyphened = word.startsWith('--') ? word.replace(/[A-Z]/gu, (letter) => `-${letter.toLowerCase()}`) : word;
  const option = hyphened.startsWith('--') && hyphened.includes('=') ? hyphened.slice(0, hyphened.indexOf('=')) : hyphened;
  if (TS_NODE_VALUED.has(option)) return option === hyphened ? 'valued' : 'joined';
  return TS_NODE_FLAGS.has(option) && option === hyphened ? 'flag' : undefined;
}

/** The names node may load for module `specifier` required from `directory` (absolute), or a problem where it cannot be carried. */
export function moduleNames(specifier: string, directory: string, why: string, problem: Problem): MappedName[] {
  if (/^\.{1,2}(\/|$)/u.test(specifier) || path.isAbsolute(specifier)) return fileCandidates(path.resolve(directory, specifier)).map((name) => ({ name, index: 0, why }));
  const preload = nodePreloadName(specifier);
  if (preload === undefined) {
    problem(`it names the module ${JSON.stringify(specifier)}, which zotbox cannot look up`);
    return [];
  }
  return [{ name: path.join(directory, preload), index: 0, why }];
}

/** A `transpiler` value: a module name, or `[name, options]` whose `swc` option names the swc module it loads. */
function transpilerModules(value: unknown): string[] | undefined {
  if (typeof value === 'string') return [value];
  if (!Array.isArray(value) || typeof value[0] !== 'string' || value.length > 2) return undefined;
  const options: unknown = value[1];
  if (options === undefined) return [value[0]];
  if (typeof options !== 'object' || options === null) return undefined;
  const { swc } = options as Record<string, unknown>;
  if (swc === undefined) return [value[0]];
  return typeof swc === 'string' ? [value[0], swc] : undefined;
}

/** The module names one tsconfig's "ts-node" options load, or why zotbox cannot list them. */
function optionModules(options: Record<string, unknown>): string[] | string {
  const modules: string[] = [];
  const { require: required, compiler, transpiler, swc } = options;
  if (required !== undefined) {
    if (!Array.isArray(required) || required.some((entry) => typeof entry !== 'string')) return 'its "ts-node" "require" is no list of module names';
    modules.push(...(required as string[]));
  }
  if (compiler !== undefined) {
    if (typeof compiler !== 'string') return 'its "ts-node" "compiler" is no module name';
    modules.push(compiler);
  }
  if (transpiler !== undefined) {
    const named = transpilerModules(transpiler);
    if (named === undefined) return 'its "ts-node" "transpiler" is no module name (or [name, options])';
    modules.push(...named);
  }
  if (swc !== undefined && swc !== false) {
    if (swc !== true) return 'its "ts-node" "swc" is no boolean';
    modules.push(...SWC_MODULES);
  }
  return modules;
}

/** What the "ts-node" key of tsconfig `file` (one of the chain) makes ts-node load, relative to the file's directory. */
export function tsNodeOptionNames(file: string, problem: Problem): MappedName[] {
  const json = readObject(file);
  // Not there, or unreadable: the chain's reader says so already (readTsconfig in tsconfig-paths.ts).
  if (json === undefined || typeof json === 'string') return [];
  const options = json['ts-node'];
  if (options === undefined) return [];
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    problem(`${file}: its "ts-node" is no object`);
    return [];
  }
  const modules = optionModules(options as Record<string, unknown>);
  if (typeof modules === 'string') {
    problem(`${file}: ${modules}`);
    return [];
  }
  const why = `its "ts-node" options make ts-node load it before the program (${file})`;
  return modules.flatMap((specifier) => moduleNames(specifier, path.dirname(file), why, (what) => problem(`${file}: ${what}`)));
}

/**
 * Why the chain's `compilerOptions.plugins` may load code: a compiler other than typescript in a "ts-node" key
 * (ttypescript, ts-patch) loads each plugin's `transform` module, resolved as that compiler chooses. Undefined: none.
 */
export function compilerPluginProblem(files: readonly string[]): string | undefined {
  const objects = files.map((file) => readObject(file)).filter((json): json is Record<string, unknown> => typeof json === 'object');
  const compiler = objects.map((json) => (json['ts-node'] as Record<string, unknown> | undefined)?.compiler).find((value) => value !== undefined && value !== 'typescript');
  const plugins = objects.some((json) => (json.compilerOptions as Record<string, unknown> | undefined)?.plugins !== undefined);
  return compiler !== undefined && plugins ? `its "ts-node" compiler ${JSON.stringify(compiler)} may load the "transform" modules of "compilerOptions.plugins"` : undefined;
}
