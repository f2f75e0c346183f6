// The path of a virtual environment's interpreter that zotbox will not run (one in the write scopes): read from the
// venv's files instead. `pyvenv.cfg` beside `bin/` marks the venv; its `lib/pythonX.Y/site-packages` (and lib64's) is
// on the path, then each directory a `.pth` file there names; setuptools' editable finders found there run last. The
// site-packages directory is protected whole (the venv is a tool entry), so reading it runs nothing the agent wrote.
// What the files do not spell out (an `import` line in a .pth but a few known exact texts, the base interpreter's
// site-packages) is unreadable.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';

/** The venv's path entries (canonical, in order) and editable finders; or why they cannot be read. */
export type VenvEntries = { readonly entries: readonly string[]; readonly finders: readonly string[] } | { readonly unreadable: string };

/** A directory's entries, sorted as site.py reads them; undefined where it cannot be listed. */
function listed(directory: string): string[] | undefined {
  try {
    return readdirSync(directory).sort();
  } catch {
    return undefined;
  }
}

/** The venv directory of an interpreter file `<venv>/bin/python…` (pyvenv.cfg beside bin/); undefined for any other file. */
export function venvOf(interpreter: string): string | undefined {
  const bin = path.dirname(interpreter);
  if (path.basename(bin) !== 'bin' || !/^python[0-9.]*$/u.test(path.basename(interpreter))) return undefined;
  const venv = path.dirname(bin);
  return (listed(venv) ?? []).includes('pyvenv.cfg') ? venv : undefined;
}

/** The lines of a .pth file that name a directory (relative to site-packages); why not, for an `import` line (code). */
export function pthDirectories(text: string): { readonly directories: readonly string[] } | { readonly unreadable: string } {
  const directories: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/\r$/u, '').trimEnd();
    if (line === '' || line.startsWith('#')) continue;
    if (/^import[ \t]/u.test(line)) return { unreadable: `it runs code (${line.length > 60 ? `${line.slice(0, 57)}...` : line})` };
    directories.push(line);
  }
  return { directories };
}

/**
 * The import lines tools write into a venv's site-packages whose module sits beside them (site-packages is protected
 * whole) and that add no path entry; exact text only (closed world: any other import line is code zotbox does not read).
 * Each gives the module file (or package directory with `__init__.py`) that must be in site-packages, since otherwise
 * the import is looked up further along the path (an editable install's src/, in the write scopes).
 */
const KNOWN_IMPORT_LINES: ReadonlyMap<string, string> = new Map([
  // setuptools' distutils-precedence.pth (before and since setuptools 60 made 'local' the default).
  ...['stdlib', 'local'].map((fallback): [string, string] => [
    `import os; var = 'SETUPTOOLS_USE_DISTUTILS'; enabled = os.environ.get(var, '${fallback}') == 'local'; enabled and __import__('_distutils_hack').add_shim();`,
    '_distutils_hack/__init__.py',
  ]),
  // virtualenv's _virtualenv.pth (every venv poetry, pipenv, hatch, tox and virtualenv make).
  ['import _virtualenv', '_virtualenv.py'],
]);

/**
 * Whether a .pth line is one whose import is known to add no path entry and to load only site-packages' own files:
 * setuptools' editable finder (its one import line puts the finder beside it on sys.meta_path, which is read), or a
 * KNOWN_IMPORT_LINES text whose module is there.
 */
function isKnownImportLine(raw: string, site: string, names: readonly string[]): boolean {
  const line = raw.replace(/\r$/u, '').trimEnd();
  const finder = /^import (__editable___\w+_finder); \1\.install\(\)$/u.exec(line);
  if (finder?.[1] !== undefined) return names.includes(`${finder[1]}.py`);
  const module = KNOWN_IMPORT_LINES.get(line);
  if (module === undefined) return false;
  const [first, inside] = module.split('/');
  return names.includes(first!) && (inside === undefined || (listed(path.join(site, first!)) ?? []).includes(inside));
}

/** What the venv at `venv` puts on its interpreter's path, read from its files. */
export function venvEntries(venv: string): VenvEntries {
  let config: string;
  try {
    config = readFileSync(path.join(venv, 'pyvenv.cfg'), 'utf8');
  } catch (error) {
    return { unreadable: `${venv}/pyvenv.cfg cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (/^\s*include-system-site-packages\s*=\s*true\s*$/imu.test(config))
    return { unreadable: `the virtual environment ${venv} includes its base interpreter's site-packages, which zotbox does not read without running it` };
  const sites = ['lib', 'lib64'].flatMap((lib) => (listed(path.join(venv, lib)) ?? []).filter((name) => /^python[0-9.]+$/u.test(name)).map((name) => path.join(venv, lib, name, 'site-packages')));
  const entries: string[] = [];
  const finders: string[] = [];
  const add = (entry: string) => {
    const real = resolveCanonicalPath(entry);
    const canonical = real.ok ? real.path : entry;
    if (!entries.includes(canonical)) entries.push(canonical);
  };
  for (const site of sites) {
    const names = listed(site);
    if (names === undefined) continue; // lib64 a link to lib, or no site-packages: nothing on the path from there
    add(site);
    for (const name of names) {
      if (name.startsWith('__editable__') && name.endsWith('_finder.py')) finders.push(path.join(site, name));
      if (!name.endsWith('.pth')) continue;
      let text: string;
      try {
        text = readFileSync(path.join(site, name), 'utf8');
      } catch (error) {
        return { unreadable: `${path.join(site, name)} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
      }
      const read = pthDirectories(
        text
          .split('\n')
          .filter((line) => !isKnownImportLine(line, site, names))
          .join('\n'),
      );
      if ('unreadable' in read) return { unreadable: `${path.join(site, name)}: ${read.unreadable}` };
      // site.py adds a line's directory only where it exists; one made later is on the path of later runs.
      for (const directory of read.directories) add(path.resolve(site, directory));
    }
  }
  if (sites.length === 0) return { unreadable: `the virtual environment ${venv} has no lib/pythonX.Y directory zotbox can read` };
  return { entries, finders };
}
