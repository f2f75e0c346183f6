// Which commands run a program under a TypeScript runner (tsx, ts-node, bun, deno, or node with a tsx, ts-node or
// tsconfig-paths loader), and the map files that command names itself: `--tsconfig`/`-P`/`--project`,
// TS_NODE_PROJECT/TSX_TSCONFIG_PATH on the command, deno's `--config`/`-c` and `--import-map`. Those runners resolve
// bare specifiers through tsconfig.json `paths`/`baseUrl` and deno's import maps (typescript-path-maps.ts). Pure, no I/O.

/** A TypeScript runner's run of a program: the map files its command names (as written, relative to where it runs). */
export interface TypescriptRun {
  readonly tsconfigs: readonly string[];
  readonly denoConfigs: readonly string[];
  readonly importMaps: readonly string[];
  /** Map files the command names by a value zotbox cannot spell out (`--tsconfig "$CFG"`). */
  readonly unreadable: readonly string[];
}

/** A TypeScript file (its runner reads its imports through the maps, whoever runs it), run by no command zotbox saw. */
export const NO_RUN_OPTIONS: TypescriptRun = { tsconfigs: [], denoConfigs: [], importMaps: [], unreadable: [] };

const RUNNERS = /^(tsx|ts-node(-esm|-script|-cwd|-transpile-only)?|bun|deno)$/u;
/** A loader that makes node a TypeScript runner (`node --import tsx`, `node -r ts-node/register`, `-r tsconfig-paths/register`). */
const LOADERS = /(^|[\s=/@])(tsx|ts-node|tsconfig-paths)(\/|\s|$)/u;

/** Options whose value names a map file: which kind it is, by runner. */
function optionKind(program: string, option: string): keyof Omit<TypescriptRun, 'unreadable'> | undefined {
  if (program === 'deno') return option === '--config' || option === '-c' ? 'denoConfigs' : option === '--import-map' ? 'importMaps' : undefined;
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
  const run = { tsconfigs: [] as string[], denoConfigs: [] as string[], importMaps: [] as string[], unreadable: [] as string[] };
  const add = (kind: keyof typeof run, value: string) => (/[$`\\*?[]/u.test(value) || value === '' ? run.unreadable : run[kind]).push(value);
  for (const [index, word] of before.entries()) {
    const assignment = /^(TS_NODE_PROJECT|TSX_TSCONFIG_PATH)=(.*)$/u.exec(word);
    if (index < at && assignment !== null) add('tsconfigs', assignment[2]!);
    if (index <= at) continue;
    const [option, value] = word.startsWith('--') && word.includes('=') ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)] : [word, undefined];
    const kind = optionKind(program, option);
    if (kind !== undefined) add(kind, value ?? words[index + 1] ?? '');
  }
  return run;
}
