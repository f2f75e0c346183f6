// The module names of an agent-writable directory on an interpreter's path whose entries are protected whole: every
// importable name but those Python would never import from there (python-path-entry-modules.ts reads which). A set of
// names with no end cannot be listed: iterating one throws, so a caller that would copy it fails closed (refuses every
// writer) instead of dropping names. Pure, no I/O.
import { isImportableName } from '../../../policy/protected-files.js';

/** Every importable name (lower case) except `excluded`: what ModuleEntries' names and packages hold for such a directory. */
export class ImportableNamesExcept implements ReadonlySet<string> {
  readonly excluded: ReadonlySet<string>;
  constructor(excluded: Iterable<string>) {
    this.excluded = new Set([...excluded].map((name) => name.toLowerCase()));
  }
  has(name: string): boolean {
    return isImportableName(name) && !this.excluded.has(name.toLowerCase());
  }
  get size(): number {
    return Number.POSITIVE_INFINITY;
  }
  private unlisted(): never {
    throw new Error('every importable name but a few cannot be listed (ImportableNamesExcept)');
  }
  forEach(): void {
    this.unlisted();
  }
  entries(): SetIterator<[string, string]> {
    return this.unlisted();
  }
  keys(): SetIterator<string> {
    return this.unlisted();
  }
  values(): SetIterator<string> {
    return this.unlisted();
  }
  [Symbol.iterator](): SetIterator<string> {
    return this.unlisted();
  }
}

/** Two name sets as one (every name either holds): an unending set stays one, excluding what both exclude. */
export function unitedNames(a: ReadonlySet<string>, b: ReadonlySet<string>): ReadonlySet<string> {
  if (a instanceof ImportableNamesExcept && b instanceof ImportableNamesExcept) return new ImportableNamesExcept([...a.excluded].filter((name) => b.excluded.has(name)));
  if (a instanceof ImportableNamesExcept) return new ImportableNamesExcept([...a.excluded].filter((name) => !b.has(name)));
  if (b instanceof ImportableNamesExcept) return unitedNames(b, a);
  return new Set([...a, ...b]);
}
