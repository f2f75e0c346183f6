// python -m NAME for a module the agent's skill bundles (issue 25): allowed only
// when the command runs in a skill's folder (/zotbox/skills/<name>, read-only, from
// the consented image) and NAME resolves there, lexically, as python's path finder
// resolves it from sys.path[0]. Pure: reads the image index, never the host.
import { IMAGE_ROOT, imageEntryOf, type ImageIndex } from '../image-paths.js';
import { deny as no, type Check } from '../shell-check.js';
import { PYTHON_STANDARD_NAMES } from './python-standard-names.js';
import { PYTHON_MODULES } from './table-python-modules.js';

/** The mark python's -I sets: the working directory is then not on sys.path, so NAME would be looked up among installed packages. */
export const ISOLATED_MARK = 'isolated';

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/u;

/** Names the interpreter imports at startup from outside the standard library (site's hooks): always the installed ones. */
const STARTUP_NAMES = ['sitecustomize', 'usercustomize'];

function runInstead(program: string, module: string): string {
  return `run the file instead: ${program} ${module.split('.').join('/')}.py`;
}

/**
 * The file `module` runs, as /zotbox/skills/<skill>/…, when python started in
 * `cwd` finds it in that skill's folder: each dotted part but the last a regular
 * package (its __init__.py in the image: a folder without one is a namespace
 * portion, which python merges with same-named folders elsewhere on sys.path),
 * the last one a package with __main__.py, else a .py file (a package wins over a
 * module, as python's finder has it). The first part must be one python does not
 * take from elsewhere before sys.path[0] (built-in, frozen or imported at startup):
 * no standard library name, no "_" name. Other files in the folder that python may
 * prefer (an extension module, bytecode in __pycache__) are the same consented
 * package; the folder is read-only to every command, so nothing can be planted there.
 * Not seen from here: a name an installed package claims at startup (a .pth file's
 * import, an editable install's finder), which python then takes from that package.
 */
export function resolveSkillModule(program: string, module: string, cwd: string, image: ImageIndex | undefined, marks: ReadonlySet<string>): Check<string> {
  const listed = Object.keys(PYTHON_MODULES).join(', ');
  const parts = module.split('.');
  const place = imageEntryOf(cwd);
  const skill = place === undefined ? undefined : /^skills\/([^/]+)$/u.exec(place.entry)?.[1];
  if (!parts.every((part) => IDENTIFIER.test(part)) || image === undefined || place === undefined || skill === undefined || image.kindOf(place.entry) !== 'directory') {
    return no(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${program} -m ${JSON.stringify(module)} is not allowed here: -m runs only ${listed} (each with its own rule), or, from a skill's folder, a module the skill bundles (cd ${IMAGE_ROOT}/skills/<skill> && ${program} -m scripts.NAME runs scripts/NAME.py beside scripts/__init__.py). Other modules run code given on the command line, run other modules or scripts, install packages or serve files. Fix: run a script file instead (${program} path/to/script.py).`,
    );
  }
  const top = parts[0]!;
  if (top.startsWith('_') || PYTHON_STANDARD_NAMES.has(top) || STARTUP_NAMES.includes(top)) {
    return no(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${program} -m ${module}: ${top} is a name python takes from its own library (built in, frozen, or imported at startup) before the working directory, so it would not run the skill's ${top}. Fix: ${runInstead(program, module)}.`,
    );
  }
  if (marks.has(ISOLATED_MARK)) {
    return no(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${program} -I -m ${module}: -I leaves the working directory off python's module path, so ${top} would be looked up among the installed packages instead of the skill's folder. Fix: drop -I.`,
    );
  }
  let directory = place.entry;
  for (const part of parts.slice(0, -1)) {
    directory = `${directory}/${part}`;
    if (image.kindOf(`${directory}/__init__.py`) !== 'file') {
      return no(
        'ZB_POLICY_SHELL_ARGUMENT',
        `${program} -m ${module}: ${IMAGE_ROOT}/${directory}/__init__.py is not in the skill's folder, so ${part} is not a package of the skill (python would merge a folder without one with same-named folders elsewhere on its path). Fix: ${runInstead(program, module)}, or add ${directory.slice(place.entry.length + 1)}/__init__.py to the skill.`,
      );
    }
  }
  const last = `${directory}/${parts.at(-1)!}`;
  const file = image.kindOf(`${last}/__init__.py`) === 'file' ? `${last}/__main__.py` : `${last}.py`;
  if (image.kindOf(file) !== 'file') {
    return no(
      'ZB_POLICY_SHELL_ARGUMENT',
      `${program} -m ${module}: ${IMAGE_ROOT}/${file} is not in the skill's folder (${IMAGE_ROOT}/${place.entry}), so python would not find ${module} there. Fix: name a module the skill bundles (the skill tool lists its files).`,
    );
  }
  return { ok: true, value: `${IMAGE_ROOT}/${file}` };
}
