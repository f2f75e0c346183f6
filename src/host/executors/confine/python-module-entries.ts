// "The top-level module entries of a directory on Python's path" (a sys.path[0]), as the readers pass it along with the
// paths they find: a reserved last component that names the interpreter (its word, as written). Where it becomes a
// location (python-installed-names.ts), the directory's entries of every name that interpreter imports are protected,
// not the directory whole. A real file of this name protects more, never less. Pure, no I/O.
import path from 'node:path';

const MARK = '__zotbox_python_path_entries__@';
/** The same for the directory CPython takes as sys.path[0] for a script: where the script resolves (its links followed). */
const SCRIPT_MARK = '__zotbox_python_script_entries__@';

/** The name standing for the module entries of `directory` (relative or absolute) that `interpreter` imports. */
export function moduleEntriesName(directory: string, interpreter: string): string {
  const mark = `${MARK}${encodeURIComponent(interpreter)}`;
  return directory === '' || directory === '.' ? mark : path.join(directory, mark);
}

/**
 * The name standing for the module entries of the directory CPython puts first on sys.path for `script`: the directory
 * of the file the script resolves to (a linked `tools/check.py -> ../scripts/check.py` imports from scripts/).
 */
export function scriptEntriesName(script: string, interpreter: string): string {
  return path.join(script, `${SCRIPT_MARK}${encodeURIComponent(interpreter)}`);
}

/**
 * The directory and interpreter a path built by moduleEntriesName or scriptEntriesName stands for (`script`: the script
 * whose resolved directory it is, the directory being the one it is written in); undefined for any other path.
 */
export function moduleEntriesOf(absolute: string): { readonly directory: string; readonly interpreter: string; readonly script?: string } | undefined {
  const last = path.basename(absolute);
  const mark = last.startsWith(MARK) ? MARK : last.startsWith(SCRIPT_MARK) ? SCRIPT_MARK : undefined;
  if (mark === undefined) return undefined;
  const at = mark === MARK ? { directory: path.dirname(absolute) } : { directory: path.dirname(path.dirname(absolute)), script: path.dirname(absolute) };
  try {
    return { ...at, interpreter: decodeURIComponent(last.slice(mark.length)) };
  } catch {
    return { ...at, interpreter: '' }; // malformed: an interpreter nothing finds, so the fallback applies
  }
}

/** The name standing for an absolute import of `module`, looked up on the interpreter's own path (python-path-imports.ts). */
const IMPORT_MARK = '__zotbox_python_path_import__@';

/** The name standing for `module` (`mypkg.lint`) as an absolute import or a `-m` target finds it on the interpreter's path. */
export function pathImportName(module: string): string {
  return `${IMPORT_MARK}${module}`;
}

/** The module a path built by pathImportName stands for (wherever the readers joined it); undefined for any other path. */
export function pathImportOf(absolute: string): string | undefined {
  const last = path.basename(absolute);
  if (!last.startsWith(IMPORT_MARK)) return undefined;
  const module = last.slice(IMPORT_MARK.length);
  return /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/u.test(module) ? module : undefined;
}
