// Where the code of a dependency's bin that yarn runs under Plug'n'Play lies: zips in the project's cache folder or the
// global cache, or an unplugged copy, picked by `.pnp.cjs` (protected by yarn-pnp-files.ts). Closed world: those folders
// are the whole answer only where every dependency spec of the project is a registry's or `workspace:` (a `link:`,
// `portal:`, `file:`, git or url spec puts code elsewhere), and each folder setting can be spelled out; anything else
// is a reason. The lockfile and the install state give each package's `bin` path: protected too. Never reads a zip.

import { lstatSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
import { readPackageJson } from './package-json-maps.js';

const require = createRequire(import.meta.url);

export interface YarnInstalledCode {
  /** Folders holding installed code (cache zips, unplugged copies), absolute: protected whole, not read. */
  readonly folders: readonly string[];
  /** Files that decide which installed file runs (the lockfile, the install state) and the rc files read, absolute. */
  readonly files: readonly string[];
  readonly unresolved?: string;
}

export interface YarnUser {
  /** The user's environment (yarn's YARN_* settings, XDG_DATA_HOME) and home directory (its `.yarnrc.yml`, the global folder). */
  readonly environment?: Readonly<Record<string, string | undefined>>;
  readonly homeDirectory?: string;
}

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies', 'resolutions'];
/**
 * A semver range or a dist-tag: no `/` (a GitHub shorthand, a path), no `:` (a protocol), no leading `.` (a path to
 * npm) and no tarball name (`lint.tgz`: a file to yarn).
 */
const RANGE = /^(?!\.)(?![^]*\.(?:tgz|tar\.gz)$)[\w\s.^~<>=|*+-]*$/iu;
const PACKAGE_NAME = /^(?:@[\w.-]+\/)?[\w.-]+$/u;

/**
 * Whether yarn installs `spec` from a registry into its cache (a range, a tag, `npm:[name@]range`, a `patch:` of one:
 * the patch is applied when yarn installs, into a zip of the cache like any other) or takes a workspace.
 */
export function isRegistrySpec(spec: string): boolean {
  if (spec.startsWith('workspace:')) return true;
  if (spec.startsWith('patch:')) {
    const inner = decodeURIComponentSafe(spec.slice('patch:'.length).split('#')[0]!);
    const at = inner.lastIndexOf('@');
    return at > 0 && PACKAGE_NAME.test(inner.slice(0, at)) && isRegistrySpec(inner.slice(at + 1));
  }
  if (spec.startsWith('npm:')) {
    const rest = spec.slice('npm:'.length);
    const at = rest.lastIndexOf('@');
    return at > 0 ? PACKAGE_NAME.test(rest.slice(0, at)) && RANGE.test(rest.slice(at + 1)) : RANGE.test(rest);
  }
  return RANGE.test(spec);
}

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return '\u0000'; // no spec: judged as none
  }
}

/** The first dependency spec of `json` that is not a registry's or a workspace's, as a reason; undefined where all are. */
function foreignSpec(json: Readonly<Record<string, unknown>>, fields: readonly string[]): string | undefined {
  for (const field of fields) {
    const specs = json[field];
    if (specs === undefined) continue;
    if (typeof specs !== 'object' || specs === null || Array.isArray(specs)) return `its ${field} is no map zotbox reads`;
    for (const [name, spec] of Object.entries(specs))
      if (typeof spec !== 'string' || !isRegistrySpec(spec)) return `its ${field} gives ${JSON.stringify(name)} the spec ${JSON.stringify(spec)}, which is no registry's nor a workspace's`;
  }
  return undefined;
}

/** Whether something is at `file` (a link too); a place zotbox cannot examine counts. */
function present(file: string): boolean {
  try {
    return lstatSync(file, { throwIfNoEntry: false }) !== undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOTDIR';
  }
}

/** The settings of one `.yarnrc.yml` that place installed code, or why they cannot be read; `{}` where there is none. */
function rcSettings(file: string): Record<string, unknown> | string {
  const text = readSmallFile(file);
  if (text === undefined) return present(file) ? `${file} cannot be read (a link, or no file)` : {};
  if (text === OVERSIZED) return `${file} is larger than zotbox reads`;
  let parsed: unknown;
  try {
    parsed = (require('yaml') as typeof Yaml).parse(text);
  } catch {
    return `${file} cannot be parsed`;
  }
  if (parsed === null || parsed === undefined) return {};
  return typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : `${file} is no YAML mapping`;
}

/** A folder setting's value resolved against `directory`; a string for why it cannot be spelled out. */
function settingPath(value: unknown, directory: string, where: string): { path: string } | string {
  if (typeof value !== 'string' || value === '' || /\$\{|^~/u.test(value)) return `${where} is ${JSON.stringify(value)}, which zotbox cannot spell out`;
  return { path: path.resolve(directory, value) };
}

/** The specs `packageExtensions` adds (`{"pkg@*": {dependencies: {...}}}`), judged as a package.json's. */
function extensionSpec(extensions: unknown, file: string): string | undefined {
  if (typeof extensions !== 'object' || extensions === null || Array.isArray(extensions)) return `${file}: its packageExtensions is no map zotbox reads`;
  for (const [key, extension] of Object.entries(extensions)) {
    if (typeof extension !== 'object' || extension === null || Array.isArray(extension)) return `${file}: its packageExtensions entry ${JSON.stringify(key)} is no map zotbox reads`;
    const foreign = foreignSpec(extension as Record<string, unknown>, ['dependencies', 'optionalDependencies', 'peerDependencies']);
    if (foreign !== undefined) return `${file}: packageExtensions ${JSON.stringify(key)}: ${foreign}`;
  }
  return undefined;
}

/** Where yarn's settings place installed code, the lockfile and the install state, from `directory` up (and the home rc). */
export function settingPlaces(directory: string, user: YarnUser): { folders: string[]; files: string[]; unresolved?: string } {
  const folders: string[] = [];
  const files: string[] = [];
  const lockfiles = new Set(['yarn.lock']);
  const tops: string[] = [];
  for (let at = path.resolve(directory); ; at = path.dirname(at)) {
    tops.push(at);
    if (path.dirname(at) === at) break;
  }
  const home = user.homeDirectory === undefined ? [] : [path.resolve(user.homeDirectory)];
  for (const at of [...new Set([...tops, ...home])]) {
    const file = path.join(at, '.yarnrc.yml');
    files.push(file);
    const settings = rcSettings(file);
    if (typeof settings === 'string') return { folders, files, unresolved: settings };
    for (const [key, inside] of [
      ['cacheFolder', ''],
      ['pnpUnpluggedFolder', ''],
      ['globalFolder', 'cache'],
      ['installStatePath', undefined],
    ] as const) {
      if (settings[key] === undefined) continue;
      const place = settingPath(settings[key], at, `${file}'s ${key}`);
      if (typeof place === 'string') return { folders, files, unresolved: place };
      if (inside === undefined) files.push(place.path);
      else folders.push(path.join(place.path, inside));
    }
    const { lockfileFilename, packageExtensions } = settings;
    if (lockfileFilename !== undefined) {
      if (typeof lockfileFilename !== 'string' || !/^[^/\\$~]+$/u.test(lockfileFilename))
        return { folders, files, unresolved: `${file}'s lockfileFilename is ${JSON.stringify(lockfileFilename)}, which zotbox cannot spell out` };
      lockfiles.add(lockfileFilename);
    }
    const foreign = packageExtensions === undefined ? undefined : extensionSpec(packageExtensions, file);
    if (foreign !== undefined) return { folders, files, unresolved: foreign };
  }
  // Yarn's defaults, from wherever the project's top may be (more places, never fewer).
  for (const at of tops) {
    folders.push(path.join(at, '.yarn', 'cache'), path.join(at, '.yarn', 'unplugged'));
    files.push(path.join(at, '.yarn', 'install-state.gz'), ...[...lockfiles].map((name) => path.join(at, name)));
  }
  const environment = user.environment ?? {};
  const xdg = environment['XDG_DATA_HOME'];
  if (xdg !== undefined && path.isAbsolute(xdg)) folders.push(path.join(xdg, 'yarn', 'berry', 'cache'));
  for (const at of home) folders.push(path.join(at, '.yarn', 'berry', 'cache'));
  // The environment's settings win over the rc files: each must be spelled out (absolute).
  for (const [name, inside] of [
    ['YARN_CACHE_FOLDER', ''],
    ['YARN_PNP_UNPLUGGED_FOLDER', ''],
    ['YARN_GLOBAL_FOLDER', 'cache'],
    ['YARN_INSTALL_STATE_PATH', undefined],
  ] as const) {
    const value = environment[name];
    if (value === undefined) continue;
    if (!path.isAbsolute(value)) return { folders, files, unresolved: `the environment's ${name} is ${JSON.stringify(value)}, which zotbox cannot spell out` };
    if (inside === undefined) files.push(path.resolve(value));
    else folders.push(path.join(path.resolve(value), inside));
  }
  for (const name of ['YARN_LOCKFILE_FILENAME', 'YARN_PACKAGE_EXTENSIONS', 'YARN_RC_FILENAME'])
    if (environment[name] !== undefined) return { folders, files, unresolved: `the environment sets ${name}, which zotbox does not read` };
  return { folders, files };
}

/**
 * Where the code of a dependency's bin that yarn runs in `directory` lies, given the project's package directories
 * (the workspace root and every package): the folders to protect whole, or why that is not the whole answer.
 */
export function yarnInstalledCode(directory: string, packages: readonly string[], user: YarnUser = {}): YarnInstalledCode {
  const manifests: string[] = [];
  for (const root of packages) {
    const file = path.join(root, 'package.json');
    manifests.push(file);
    const json = readPackageJson(file);
    if (typeof json === 'string') return { folders: [], files: manifests, unresolved: `${file}: ${json}` };
    if (json === undefined) {
      if (present(file)) return { folders: [], files: manifests, unresolved: `${file} cannot be read (a link, or no file)` };
      continue;
    }
    const foreign = foreignSpec(json, DEPENDENCY_FIELDS);
    if (foreign !== undefined) return { folders: [], files: manifests, unresolved: `${file}: ${foreign}, so its code is not in yarn's cache` };
  }
  const places = settingPlaces(directory, user);
  const files = [...manifests, ...places.files];
  if (places.unresolved !== undefined) return { folders: [], files, unresolved: places.unresolved };
  return { folders: [...new Set(places.folders)], files: [...new Set(files)] };
}
