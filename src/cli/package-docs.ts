// Where this zotbox's own docs are: the docs folder of the package it runs from (a
// clone, or wherever npm installed it), so help can print a path a user can open.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** dist/src/cli/ → the package root, in a clone and in an installed package alike. */
const PACKAGE_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The absolute path of one of the package's docs (`cli.md`, `agents.md`). */
export function packageDoc(name: string): string {
  return path.join(PACKAGE_ROOT, 'docs', name);
}
