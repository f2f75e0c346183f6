// Which commands run a program under a TypeScript runner (tsx, ts-node, bun, deno, or node with a tsx, ts-node or
// tsconfig-paths loader), and the map files that command names itself: `--tsconfig`/`-P`/`--project`,
// TS_NODE_PROJECT/TSX_TSCONFIG_PATH on the command, deno's `--config`/`-c` and `--import-map`. Those runners resolve
// bare specifiers through tsconfig.json `paths`/`baseUrl` and deno's import maps (typescript-path-maps.ts). Also the
// modules ts-node's command loads (`-C`/`--compiler`, `--transpiler`, `--swc`, TS_NODE_COMPILER; its `-r` is node's,
// read as node's preloads), resolved from where it runs (ts-node-options.ts). Pure, no I/O.

/** A TypeScript runner's run of a program: the map files its command names (as written, relative to where it runs). */
export interface TypescriptRun {
  readonly tsconfigs: readonly string[];
  readonly denoConfigs: readonly string[];
  readonly importMaps: readonly string[];
  /** Modules ts-node's command makes it load (a compiler, a transpiler), as written. */
  readonly modules: readonly string[];
  /** Map files or modules the command names by a value zotbox cannot spell out (`--tsconfig "$CFG"`). */
  readonly unreadable: readonly string[];
}

/** A TypeScript file (its runner reads its imports through the maps, whoever runs it), run by no command zotbox saw. */
export const NO_RUN_OPTIONS: TypescriptRun = { tsconfigs: [], denoConfigs: [], importMaps: [], modules: [], unreadable: [] };

/** The modules ts-node's `swc` option (`--swc`, `"swc": true`) loads: its swc transpiler, which loads @swc/core (or @swc/wasm) from the project. */
export const SWC_MODULES = ['ts-node/transpilers/swc', '@swc/core', '@swc/wasm'];

const RUNNERS = /^(tsx|ts-node(-esm|-script|-cwd|-transpile-only)?|bun|deno)$/u;
/** A loader that makes node a TypeScript runner (`node --import tsx`, `node -r ts-node/register`, `-r tsconfig-paths/register`). */
const LOADERS = /(^|[\s=/@])(tsx|ts-node|tsconfig-paths)(\/|\s|$)/u;

/** ts-node's options whose value is a module it requires (ts-node 10.9: `-C`/`--compiler`, `--transpiler`). */
const TS_NODE_MODULES = /^(-C|--compiler|--transpiler)$/u;

/** Options whose value names a map file or a module: which kind it is, by runner. */
function optionKind(program: string, option: string): keyof Omit<TypescriptRun, 'unreadable'> | undefined {
  if (program === 'deno') return option === '--config' || option === '-c' ? 'denoConfigs' : option === '--import-map' ? 'importMaps' : undefined;
  if (program.startsWith('ts-node') && TS_NODE_MODULES.test(option)) return 'modules';
  return option === '--tsconfig' || option === '--project' || option === '-P' ? 'tsconfigs' : undefined;
}

/**
 * The TypeScript run of one command's words (quotes removed), whose program is `words[at]` (a file name's last part)
 * and whose operand is `words[operand]`; undefined where no TypeScript runner runs it.
 */
export function typescriptRun(words: readonly string[], at: number, operand: number): TypescriptRun | undefined {
  const program = (words[at] ?? '').split('/').pop()!;
  const before = words.slice(0, operand);
  if (!RUNNERS.test(program) && !(/^(node|nodejs)$/u.test(program) && before.some((word) => LOADERS.test(word)))) return undefined;
  const run = { tsconfigs: [] as string[], denoConfigs: [] as string[], importMaps: [] as string[], modules: [] as string[], unreadable: [] as string[] };
  const add = (kind: keyof typeof run, value: string) => (/[$`\\*?[]/u.test(value) || value === '' ? run.unreadable : run[kind]).push(value);
  for (const [index, word] of before.entries()) {
    const assignment = /^(TS_NODE_PROJECT|TSX_TSCONFIG_PATH)=(.*)$/u.exec(word);
    if (index < at && assignment !== null) add('tsconfigs', assignment[2]!);
    // The compiler ts-node requires, for ts-node or node with its loader (the environment reaches both).
    const compiler = /^TS_NODE_COMPILER=(.*)$/u.exec(word);
    if (index < at && compiler !== null) add('modules', compiler[1]!);
    if (index <= at) continue;
    if (program.startsWith('ts-node') && word === '--swc') run.modules.push(...SWC_MODULES);
    const [option, value] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
    const kind = optionKind(program, option);
    if (kind !== undefined) add(kind, value ?? words[index + 1] ?? '');
  }
  return run;
}
