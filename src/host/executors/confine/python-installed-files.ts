// Whether a program a hook reaches is installed Python code: a file in a `site-packages` or `dist-packages` directory
// of an interpreter's library (`lib/python3.11/site-packages`, Debian's `python3/dist-packages`). Such a directory is a
// tool entry, protected whole where it lies in the write scopes (policy/protected-files.ts: a `.pth` file there runs at
// every start), so its files are protected where they are named but not read on for what they import, as a package
// installed in a node_modules is not (node-installed-bins.ts): installed code is the environment's, not the agent's,
// and reading it finds lines (`sys.meta_path.insert(0, hook)`) that would refuse every writer.
// Pure, no I/O: the caller gives the path canonically resolved.

import path from 'node:path';

const SITE = /^(site|dist)-packages$/u;
const LIBRARY = /^(lib|python\d+(\.\d+)?|pypy\d+(\.\d+)?)$/u;

/** The site-packages directory `canonical` lies in (the innermost), or undefined for a file in none. */
export function installedPythonSite(canonical: string): string | undefined {
  const pieces = path.resolve(canonical).split(path.sep);
  for (let at = pieces.length - 2; at >= 1; at--) if (SITE.test(pieces[at]!) && LIBRARY.test(pieces[at - 1]!)) return pieces.slice(0, at + 1).join(path.sep);
  return undefined;
}
