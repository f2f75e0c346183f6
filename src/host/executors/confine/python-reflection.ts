// Ways a Python program reaches a module, and so its loaders and the builtins that run text, without naming it
// (review s21l, after s19k's "not done"): the import system's private modules, the table of loaded modules, a
// namespace dictionary, and the reflection that climbs from any object to a module (`print.__self__` is builtins,
// `f.__globals__` a module's namespace, `object.__subclasses__()` every class). zotbox cannot tell which module such
// a value is, so each is refused where it is written. Pure; `code` is pythonLogicalLines' view.
import type { Found } from './python-code-runners.js';

/**
 * Names that hand over a module or run a code object zotbox never sees: the import system's own modules under their
 * private names (`_frozen_importlib_external.SourceFileLoader`, `_imp.create_dynamic`, `importlib._bootstrap`), a
 * builtin's module (`__self__`), a class's bases (`__base__`, `__mro__`: past a sandbox's subclass to what it
 * guards, review s25n row 3), a function's namespace (`__globals__`), a frame's (`sys._getframe().f_builtins`), every
 * class (`__subclasses__`), the garbage collector's objects, a code object built or swapped (`CodeType`, `__code__`), and the loader base classes whose
 * `exec_module` runs whatever source a subclass hands back (`SourceLoader`, `FileLoader`, `InspectLoader`); and the
 * lookups by a name given at run time that are not getattr (review s29p row 2: `operator.attrgetter(k)(os)`,
 * `inspect.getmembers(os)`, `inspect.getattr_static`, `string.Formatter().get_field`, glom's paths).
 */
const REFLECTION =
  /(?<![\w.])(?:_frozen_importlib\w*|_bootstrap\w*|_imp)\b|\b(?:__self__|__base__|__bases__|__mro__|mro|__globals__|__subclasses__|__code__|CodeType|getmodule|_getframe|currentframe|f_builtins|f_globals|f_locals|tb_frame|SourceLoader|FileLoader|InspectLoader|ExecutionLoader|attrgetter|methodcaller|getattr_static|getmembers|getmembers_static|get_field|glom)\b|\bgc\s*\.\s*get_(?:objects|referrers|referents)\b/gu;

/**
 * The module table (`sys.modules`, under any alias of sys, or `from sys import modules`) used as anything but a
 * membership test: `sys.modules["run" "py"]`, `sys.modules.values()` and `sys.modules.get(name)` may each be runpy
 * or builtins, and `sys.modules["pickle"]` a deserializer (review s21l row 3).
 */
export function moduleTableUses(code: string): Found[] {
  const found: Found[] = [];
  const imported = /^\s*from\s+sys\s+import\b[^\n]*(?<![\w.])modules\b(?!\s+as\b)/mu.test(code);
  const sys = new Set(['sys', ...[...code.matchAll(/^[ \t]*(?:from|import)\b[^\n]*\bsys\s+as\s+([A-Za-z_]\w*)/gmu)].map((alias) => alias[1]!)]);
  for (const match of code.matchAll(/(?<![\w])modules\b/gu)) {
    const line = code.slice(code.lastIndexOf('\n', match.index - 1) + 1, match.index);
    // Another object's attribute (`args.modules`, review s25n over-denial 3) is not the table; sys by another way
    // (`import_module("sys").modules`, `m[0].modules`) may be.
    const owner = /([A-Za-z_]\w*)?\s*\.\s*$/u.exec(line);
    if (owner?.[1] !== undefined && !sys.has(owner[1]) && !/\.\s*[A-Za-z_]\w*\s*\.\s*$/u.test(line)) continue;
    // A bare `modules` is the table only where sys's is imported under that name; the import itself uses nothing,
    // but an import under another name (`from sys import modules as m`) hands the table to a name zotbox does not follow.
    if (/^\s*from\s+sys\s+import\b/u.test(line) && /^\s+as\b/u.test(code.slice(match.index + match[0].length))) {
      found.push({ at: match.index, call: 'sys.modules' });
      continue;
    }
    if (!/\.\s*$/u.test(line) && (!imported || /^\s*(?:from|import)\b/u.test(line))) continue;
    const after = code.slice(match.index + match[0].length);
    if (/\bin\s+(?:[A-Za-z_]\w*\s*\.\s*)?$/u.test(line) && !/^\s*[[.(]/u.test(after)) continue;
    found.push({ at: match.index, call: 'sys.modules' });
  }
  // The table taken by its name as a string (`getattr(sys, "modules")`, `vars(sys)["modules"]`).
  for (const match of code.matchAll(/(["'])modules\1/gu)) found.push({ at: match.index, call: 'sys.modules' });
  return found;
}

/**
 * A namespace taken whole (`globals()`, `locals()`, `vars()` without an argument) and used as anything but keywords
 * spread into a string's format (`"{n}".format(**locals())`): `globals()["__built" "ins__"]` or `globals().get(name)` may be the
 * builtins module, and `globals()["pickle"]` a deserializer under no name zotbox reads (review s25n row 4).
 */
export function namespaceLookups(code: string): Found[] {
  const found: Found[] = [];
  // Only into a string's format: spread into any other call (`dict(**globals())`) the namespace is a value again.
  for (const match of code.matchAll(/(?<![\w.])(?:globals|locals|vars)\s*\(\s*\)/gu))
    if (!/\.\s*format\s*\(\s*(?:[^()\n]*,\s*)?\*\*\s*$/u.test(code.slice(Math.max(0, match.index - 80), match.index))) found.push({ at: match.index, call: match[0].replace(/\s+/gu, '') });
  return found;
}

/**
 * sys used as a value (`S = os.sys`, `f(sys)`, `vars(sys)`, `sys.__dict__`): its module table then goes by a name
 * zotbox does not follow (session 28). `text` has strings and comments blanked; `sys.attribute` and imports are read.
 */
export function sysValues(text: string): Found[] {
  const found: Found[] = [];
  for (const match of text.matchAll(/(?<![\w])sys\b/gu)) {
    const line = text.slice(text.lastIndexOf('\n', match.index - 1) + 1, match.index);
    if (/^\s*(?:from|import)\b[^;]*$/u.test(line) || /^\s*\.\s*(?!__dict__\b)[A-Za-z_]/u.test(text.slice(match.index + 3))) continue;
    found.push({ at: match.index, call: 'sys' });
  }
  return found;
}

/** Each reflection that reaches a module or a code object (REFLECTION), the module table's and namespaces' uses, sys as a value. */
export function reflectedModules(code: string, text: string): Found[] {
  const reflection = [...code.matchAll(REFLECTION)].map((match) => ({ at: match.index, call: match[0].replace(/\s+/gu, '') }));
  return [...reflection, ...moduleTableUses(code), ...namespaceLookups(code), ...sysValues(text)];
}
