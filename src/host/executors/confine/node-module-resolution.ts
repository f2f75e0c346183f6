// What node (and the TypeScript runners tsx, ts-node, bun, deno) loads for a specifier that is no relative path:
// a subpath import (`import "#lib/util.js"`, mapped by the nearest package.json's "imports") and the package importing
// itself by its own name (mapped by its "exports"). Read as node's resolution reads them, every condition counted
// (which one applies depends on how the program is run); the package.json that maps them is protected too, since
// what it maps is what runs. Closed world: a specifier zotbox cannot map to a file is unresolved, never "nothing".
// A bare specifier naming another package loads from node_modules: installed code that is no tool file, unless the
// package there leads back into the project or a name made nearer would load first (node-linked-packages.ts). (The TypeScript runners map bare specifiers
// through tsconfig.json and deno.json first: typescript-path-maps.ts.)

import path from 'node:path';
import { globalFolders } from './node-global-folders.js';
import { linkedPackageNames } from './node-linked-packages.js';
import { mappedTargets, packageMap, packageScope } from './package-json-maps.js';
import { typescriptCandidates } from './typescript-resolution.js';

/** The names `code` binds to `createRequire(...)` (`const req = createRequire(import.meta.url)`), escaped for a RegExp. */
function boundRequires(code: string): string[] {
  return [...code.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*(?:\w+\s*\.\s*)?createRequire\b/gu)].map((match) => match[1]!.replace(/\$/gu, '\\$'));
}

/**
 * The calls that load or resolve a specifier as require/import does: require and import, `require.resolve`,
 * `import.meta.resolve`, `createRequire(...)` and its `.resolve` (a file found by a package's name is run by the
 * program that found it as often as it is loaded), and a name bound to `createRequire(...)`, called or `.resolve`d.
 */
function loaderCalls(code: string): RegExp {
  const bound = boundRequires(code);
  const names = ['require', ...bound].map((name) => `(?<![\\w$])${name}\\s*(?:\\.\\s*resolve\\s*)?\\(\\s*`);
  const created = String.raw`\bcreateRequire\s*\((?:[^()]|\([^()]*\))*\)\s*(?:\.\s*resolve\s*)?\(\s*`;
  const meta = String.raw`\bimport\s*\.\s*meta\s*\.\s*resolve\s*\(\s*`;
  return new RegExp(`(?:${[...names, created, meta, String.raw`\bimport\s*\(\s*`, String.raw`\bfrom\s+`, String.raw`\bimport\s+`].join('|')})["'\`]([^"'\`\\s./][^"'\`\\s]*)["'\`]`, 'gu');
}

/**
 * The resolve calls of `code` given a second argument (`require.resolve("x", { paths: [dir] })`, a createRequire's
 * `.resolve`, `import.meta.resolve("x", parent)`), with the line of each: node looks the specifier up from the
 * directories (or the parent) that argument names instead of the program's own, relative or bare. zotbox does not
 * read that argument: each is unresolved. `path.resolve(...)` and other objects' `resolve` are no such call.
 */
export function resolveCallsWithOptions(code: string): { readonly text: string; readonly line: number }[] {
  const bound = boundRequires(code);
  const callers = [
    ...['require', ...bound].map((name) => String.raw`(?<![\w$.])${name}\s*\.\s*resolve`),
    String.raw`\bcreateRequire\s*\((?:[^()]|\([^()]*\))*\)\s*\.\s*resolve`,
    String.raw`\bimport\s*\.\s*meta\s*\.\s*resolve`,
  ];
  const calls = new RegExp(`(?:${callers.join('|')})\\s*\\(\\s*(["'\`])((?:(?!\\1)[^\\\\\\n])*)\\1\\s*,`, 'gu');
  return [...code.matchAll(calls)].map((match) => ({ text: match[2]!, line: code.slice(0, match.index).split('\n').length - 1 }));
}

/** The specifiers of `code`'s imports and requires (and their resolve calls) that are no relative or absolute path, with the line that says each. */
export function packageSpecifiers(code: string): { readonly text: string; readonly line: number }[] {
  const found: { text: string; line: number }[] = [];
  const calls = loaderCalls(code);
  // Read on the whole text, not line by line: a call's literal may stand on a line after its `(` (`require(⏎"#x"⏎)`).
  for (const match of code.matchAll(calls))
    if (!match[1]!.startsWith('node:')) found.push({ text: match[1]!, line: code.slice(0, match.index + match[0].length - match[1]!.length).split('\n').length - 1 });
  return found;
}

/**
 * The files node loads for `file`'s subpath imports, its self-references and the packages that lead back into the
 * project (absolute), with the package.json that maps them; what it cannot map is unresolved (`where` says the line).
 * `tree`: a name not made yet, or a directory, whole; `link`: a link on the way, as a link; `why`: what makes node load it.
 * `environment`: the user's (NODE_PATH, HOME), where CommonJS looks after the node_modules walk.
 */
export function packageSpecifierNames(
  file: string,
  code: string,
  where: (index: number, what: string) => string,
  unresolved: string[],
  environment: Readonly<Record<string, string | undefined>>,
): { name: string; index: number; tree?: boolean; link?: true; why?: string }[] {
  const names: { name: string; index: number; tree?: boolean; link?: true; why?: string }[] = [];
  for (const { text, line } of resolveCallsWithOptions(code))
    unresolved.push(where(line, `: it resolves ${JSON.stringify(text)} from the directories its second argument names, which zotbox does not read`));
  const specifiers = packageSpecifiers(code);
  if (specifiers.length === 0) return names;
  const scope = packageScope(path.dirname(file));
  const global = globalFolders(environment);
  for (const { text, line } of specifiers) {
    const own = scope === undefined || typeof scope.json === 'string' ? undefined : scope.json.name;
    const self = typeof own === 'string' && (text === own || text.startsWith(`${own}/`));
    if (!text.startsWith('#') && !self) {
      // Another package: what node_modules holds for it, where that leads back into the project.
      for (const found of linkedPackageNames(file, text, (what) => where(line, what), unresolved, global)) names.push({ ...found, index: line });
      continue;
    }
    if (scope === undefined || typeof scope.json === 'string') {
      const why = scope === undefined ? 'and there is none' : typeof scope.json === 'string' ? `and ${scope.file}: ${scope.json}` : '';
      unresolved.push(where(line, `: node maps ${JSON.stringify(text)} through the nearest package.json, ${why}`));
      continue;
    }
    const map = packageMap(self ? scope.json.exports : scope.json.imports, self);
    const targets = map === undefined ? undefined : mappedTargets(map, self ? `.${text.slice(typeof own === 'string' ? own.length : 0)}` : text);
    // A target in the package ("./lib/*") is what runs; one naming another package (imports only) is looked up in
    // node_modules from the package.json's directory, as a bare specifier is.
    const local = (targets ?? []).filter((target) => target.startsWith('./'));
    if (targets === undefined || targets.some((target) => !target.startsWith('./') && (self || !/^[A-Za-z@][^:]*$/u.test(target)))) {
      unresolved.push(where(line, `: node maps ${JSON.stringify(text)} through ${scope.file}, and zotbox cannot work out which file that is`));
      continue;
    }
    names.push({ name: scope.file, index: line });
    for (const target of targets.filter((each) => !each.startsWith('./')))
      for (const found of linkedPackageNames(scope.file, target, (what) => where(line, what), unresolved, global)) names.push({ ...found, index: line });
    for (const target of local) for (const name of [target, ...typescriptCandidates(target)]) names.push({ name: path.resolve(path.dirname(scope.file), name), index: line });
  }
  return names;
}
