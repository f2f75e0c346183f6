// A bare specifier node's preload options name (`node -r @acme/setup`, `--import`, `--loader`, the same in
// NODE_OPTIONS), as the pure readers pass it along: a reserved path component, then the specifier, relative to where
// the command runs. The tool-file reader turns it into what node loads for it from that directory, through the
// node_modules walk a program's `require(LIT)` gets (node-linked-packages.ts). Closed world: a specifier that cannot be
// carried as a path is unresolved, never "nothing".
import path from 'node:path';
import { globalFolders } from './node-global-folders.js';
import { type LinkedPackageName, linkedPackageNames } from './node-linked-packages.js';

const MARK = '__zotbox_node_preload__';

/** The name standing for `specifier` preloaded from where the command runs; undefined where it cannot be spelled as one. */
export function nodePreloadName(specifier: string): string | undefined {
  // `.`/`..`/empty components would be folded away by path joins: no package name has them.
  if (specifier === '' || specifier.split('/').some((part) => part === '' || part === '.' || part === '..')) return undefined;
  return `${MARK}/${specifier}`;
}

/** Whether `name` stands for a preloaded package (nodePreloadName): a reader that does not look it up must refuse it. */
export function isNodePreloadName(name: string): boolean {
  return name.split('/').includes(MARK);
}

/** Why a reader that does not look preloads up refuses one: `name` is a nodePreloadName, or a path holding one. */
export function unreadPreload(name: string): string {
  const parts = name.split('/');
  return `node preloads the package ${JSON.stringify(parts.slice(parts.indexOf(MARK) + 1).join('/'))} by name, which zotbox does not look up here`;
}

/**
 * What node loads for the preload a name from nodePreloadName stands for (`written`: resolved against where the command
 * runs), looked up from that directory; undefined for any other path. `say(what)` names the line for an unresolved reason.
 */
export function nodePreloadNames(written: string, say: (what: string) => string, unresolved: string[], environment: Readonly<Record<string, string | undefined>>): LinkedPackageName[] | undefined {
  const parts = written.split('/');
  const at = parts.indexOf(MARK);
  if (at === -1) return undefined;
  const directory = parts.slice(0, at).join('/') || '/';
  const specifier = parts.slice(at + 1).join('/');
  // Node looks the specifier up as a module in the working directory would: the walk starts at that directory.
  return linkedPackageNames(path.join(directory, '[preload]'), specifier, say, unresolved, globalFolders(environment));
}
