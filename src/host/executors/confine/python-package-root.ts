// Where Python finds a module of a package (s36i review): the directory above its outermost package (the first one
// up without an __init__.py) is on sys.path when the module is imported by its full name, so the module's absolute
// imports are looked up there too. Reads the filesystem (existence only).
import { existsSync } from 'node:fs';
import path from 'node:path';

/** The directory above the outermost regular package that holds `file`; undefined when `file` is in no package. */
export function packageSearchRoot(file: string): string | undefined {
  let directory = path.dirname(file);
  if (!existsSync(path.join(directory, '__init__.py'))) return undefined;
  while (existsSync(path.join(directory, '__init__.py')) && path.dirname(directory) !== directory) directory = path.dirname(directory);
  return directory;
}
