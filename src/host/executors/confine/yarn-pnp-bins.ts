// What `yarn NAME` / `yarn run NAME` runs under Plug'n'Play, where there is no node_modules/.bin: a script of the
// package yarn runs in (its text handed back: node-bin-runs.ts reads the names it runs as yarn runs them), else the
// bin of a dependency, found through `.pnp.cjs`. A workspace dependency (`workspace:*`) is a workspace package: its
// package.json `bin` names the file (any workspace package's counts: more places, never fewer). Any other dependency's
// bin lies in yarn's cache zips, which zotbox cannot read: unresolved, never "left to the shell". Every package.json
// examined is named (it decides what runs).

import path from 'node:path';
import { readPackageJson } from './package-json-maps.js';
import { workspacePackages } from './node-workspace-packages.js';
import { settingPlaces, type YarnUser, yarnInstalledCode } from './yarn-pnp-dependencies.js';

export interface YarnPnpName {
  /** The workspace bin files the name runs (absolute): read as run. */
  readonly bins: readonly string[];
  /** The package.json files examined (absolute), there or not. */
  readonly files: readonly string[];
  /** The folders a dependency's bin runs from (cache zips, unplugged copies): protected whole, not read. */
  readonly installed?: readonly string[];
  /** The script of that name yarn runs (its shell text, and the package.json holding it): read as yarn runs it. */
  readonly script?: { readonly file: string; readonly text: string };
  readonly unresolved?: string;
}

/** The nearest package.json at or above `directory` (the package yarn runs in) and the script of that name it holds. */
function ownScript(name: string, directory: string): { file?: string; script?: string; unresolved?: string } {
  for (let at = path.resolve(directory); ; at = path.dirname(at)) {
    const file = path.join(at, 'package.json');
    const json = readPackageJson(file);
    if (typeof json === 'string') return { file, unresolved: `${file}: ${json}` };
    if (json !== undefined) {
      const { scripts } = json;
      const text = typeof scripts === 'object' && scripts !== null ? (scripts as Record<string, unknown>)[name] : undefined;
      return { file, ...(typeof text === 'string' ? { script: text } : {}) };
    }
    if (path.dirname(at) === at) return {};
  }
}

/** The file a package's `bin` gives `name` (a string bin is named like the unscoped package), or why it cannot be told. */
function binTarget(json: Readonly<Record<string, unknown>>, name: string, root: string): string | { readonly unresolved: string } | undefined {
  const { bin, directories } = json;
  if (bin === undefined && typeof directories === 'object' && directories !== null && (directories as Record<string, unknown>).bin !== undefined)
    return { unresolved: 'it lists its bins as a directory (directories.bin), which zotbox does not read' };
  const own = typeof json.name === 'string' ? json.name.replace(/^@[^/]+\//u, '') : undefined;
  const target = typeof bin === 'string' ? (own === name ? bin : undefined) : typeof bin === 'object' && bin !== null ? (bin as Record<string, unknown>)[name] : undefined;
  if (target === undefined) return undefined;
  return typeof target === 'string' && target !== '' ? path.resolve(root, target) : { unresolved: 'it has a bin zotbox cannot read' };
}

/** What `name`, run by yarn in `directory` of a Plug'n'Play project (no node_modules/.bin holds it), runs. */
export function yarnPnpName(name: string, directory: string, user: YarnUser = {}): YarnPnpName {
  const own = ownScript(name, directory);
  const files = own.file === undefined ? [] : [own.file];
  if (own.unresolved !== undefined) return { bins: [], files, unresolved: own.unresolved };
  if (own.script !== undefined) return { bins: [], files, script: { file: own.file!, text: own.script } };
  const listed = workspacePackages(directory);
  files.push(...listed.files);
  const unresolved = (why: string) => ({ bins: [], files, unresolved: `it runs ${JSON.stringify(name)} through yarn's Plug'n'Play, and ${why}` });
  // No workspace root: the project is the one package yarn runs in (its own bin counts, as yarn's does).
  const single = 'reason' in listed && own.file !== undefined && listed.reason.startsWith('no workspace root');
  if ('reason' in listed && !single) return unresolved(`no workspace package can be listed for its bin (${listed.reason})`);
  const packages = 'reason' in listed ? [path.dirname(own.file!)] : listed.directories;
  const bins: string[] = [];
  for (const root of packages) {
    const file = path.join(root, 'package.json');
    files.push(file);
    const json = readPackageJson(file);
    if (typeof json === 'string') return unresolved(`${file}: ${json}`);
    const target = json === undefined ? undefined : binTarget(json, name, root);
    if (typeof target === 'object') return unresolved(`${file}: ${target.unresolved}`);
    if (target !== undefined) bins.push(target);
  }
  if (bins.length > 0) {
    // Yarn takes a workspace's bin path from the install state or the lockfile as well (not only its package.json):
    // those decide what runs too, protected as for a dependency's bin.
    const places = settingPlaces(directory, user);
    files.push(...places.files);
    if (places.unresolved !== undefined) return unresolved(places.unresolved);
    return { bins, files };
  }
  // A dependency's bin: its code is in yarn's cache zips or unplugged copies, protected whole where the project's
  // dependencies are all the registry's or workspaces (a link:/portal:/file: one's code lies anywhere).
  const code = yarnInstalledCode(directory, packages, user);
  files.push(...code.files);
  if (code.unresolved !== undefined) return unresolved(`no script of its package nor bin of a workspace package has that name, so it is a dependency's, and ${code.unresolved}`);
  return { bins, files, installed: code.folders };
}
