// "The top-level module entries of a directory on Python's path" (a sys.path[0]), as the readers pass it along with the
// paths they find: a reserved last component that names the interpreter (its word, as written). Where it becomes a
// location (python-installed-names.ts), the directory's entries of every name that interpreter imports are protected,
// not the directory whole. A real file of this name protects more, never less. Pure, no I/O.
import path from 'node:path';

const MARK = '__zotbox_python_path_entries__@';

/** The name standing for the module entries of `directory` (relative or absolute) that `interpreter` imports. */
export function moduleEntriesName(directory: string, interpreter: string): string {
  const mark = `${MARK}${encodeURIComponent(interpreter)}`;
  return directory === '' || directory === '.' ? mark : path.join(directory, mark);
}

/** The directory and interpreter a path built by moduleEntriesName stands for; undefined for any other path. */
export function moduleEntriesOf(absolute: string): { readonly directory: string; readonly interpreter: string } | undefined {
  const last = path.basename(absolute);
  if (!last.startsWith(MARK)) return undefined;
  try {
    return { directory: path.dirname(absolute), interpreter: decodeURIComponent(last.slice(MARK.length)) };
  } catch {
    return { directory: path.dirname(absolute), interpreter: '' }; // malformed: an interpreter nothing finds, so the fallback applies
  }
}
