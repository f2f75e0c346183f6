// Where CommonJS looks a bare specifier up after the node_modules walk from the program: each NODE_PATH entry, then
// $HOME/.node_modules and $HOME/.node_libraries (node's Module._initPaths), from the user's environment as the caller
// passes it (never process.env). A relative NODE_PATH entry depends on where the program is started: it is returned as
// a reason, for the caller to count unresolved when its lookup gets there. node's own prefix (PREFIX/lib/node) is not
// read: it is outside the project, installed code.

import path from 'node:path';

/** A place node looks in after the walk: a directory it looks the name up in, or why zotbox cannot tell which. */
export type GlobalFolder = { readonly directory: string } | { readonly reason: string };

/** The places CommonJS looks a bare specifier up in after the node_modules walk, in node's order. */
export function globalFolders(environment: Readonly<Record<string, string | undefined>>): GlobalFolder[] {
  const folders: GlobalFolder[] = [];
  for (const entry of (environment['NODE_PATH'] ?? '').split(path.delimiter)) {
    if (entry === '') continue; // node skips empty entries
    folders.push(path.isAbsolute(entry) ? { directory: path.resolve(entry) } : { reason: `NODE_PATH names ${JSON.stringify(entry)}, relative to wherever the program is started` });
  }
  const home = environment['HOME'];
  if (home !== undefined && path.isAbsolute(home)) folders.push({ directory: path.join(home, '.node_modules') }, { directory: path.join(home, '.node_libraries') });
  return folders;
}
