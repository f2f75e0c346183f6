// The files a program names through its own location, joined from its directory and string literals: node's
// `__dirname + "/plug.js"`, `path.join(import.meta.dirname, "..", "lib")`, Python's `Path(__file__).parent / "fmt.sh"`,
// `f"{os.path.dirname(__file__)}/x"`, Perl's `"$FindBin::Bin/x"`, Ruby's `"#{__dir__}/x"`. Pure string reading, no I/O:
// each name is relative to the program file's directory. A bare literal counts from there too (tool-file-references.ts).

import { plainWord } from './tool-file-words.js';

/** A path the program builds from its own directory: `text` relative to that directory, on line `line` (0-based). */
export interface ProgramRelativeName {
  readonly text: string;
  readonly line: number;
}

/** The program file itself, as each language spells it (wrapped in abspath/realpath/fileURLToPath: the same file). */
const FILE = String.raw`(?:__filename|__file__|__FILE__|(?:url\.)?fileURLToPath\(\s*import\.meta\.url\s*\)|os\.path\.(?:abspath|realpath)\(\s*__file__\s*\)|File\.(?:expand_path|realpath|absolute_path)\(\s*__FILE__\s*\)|(?:Cwd::)?(?:abs_path|realpath)\(\s*__FILE__\s*\))`;

/** `dirname(` as each language's path module spells it. */
const DIRNAME = String.raw`(?:os\.path\.|path\.|posixpath\.|File\.|File::Basename::)?dirname\(\s*`;

/** The program's directory (or one above it: nested dirname, pathlib's `.parent.parent`, `.parents[1]`). */
const LOCATION = new RegExp(
  [
    String.raw`(?<![\w$.])(?:__dirname|import\.meta\.dirname|__dir__)(?![\w$])`,
    String.raw`\$\{?(?:FindBin::)?(?:Real)?Bin\}?(?![\w:])`,
    String.raw`(?<![\w.])(?:pathlib\.)?Path\(\s*__file__\s*\)(?:\.(?:resolve|absolute)\(\s*\))*(?<up>(?:\.parent)+(?!\w)|\.parents\[\s*\d\s*\])`,
    // dirname() one to three deep, its parentheses closed as many times.
    ...[1, 2, 3].map((depth) => String.raw`(?<![\w.])(?:${DIRNAME}){${depth}}${FILE}(?:\s*\)){${depth}}`),
    // The file itself, which a lexical join steps up from: node's `path.join(__filename, "..", "x")`, Ruby's
    // `File.expand_path("../x", __FILE__)`.
    String.raw`(?<file>(?<![\w.$])(?:${FILE}|import\.meta\.filename)(?![\w$]))`,
  ].join('|'),
  'gu',
);

/** A stand-in for the file's own name, a join on the file steps up from. */
const FILE_STEP = '\uE000';

/** One quoted literal (no interpolation, no escape): its text. */
const LITERAL = String.raw`(?:"[^"\\\n$]*"|'[^'\\\n$]*'|\x60[^\x60\\\n$]*\x60)`;
const CONCATENATED = new RegExp(String.raw`^(?:\s*[+.]\s*${LITERAL})+`, 'u');
const JOINED = new RegExp(String.raw`^(?:\s*,\s*${LITERAL})+`, 'u');
const DIVIDED = new RegExp(String.raw`^(?:\s*/\s*${LITERAL})+`, 'u');
const JOINPATH = new RegExp(String.raw`^\s*\.joinpath\(\s*${LITERAL}(?:\s*,\s*${LITERAL})*`, 'u');
/** Ruby's `File.expand_path(LITERAL, base)`: the literal comes first. */
const EXPANDED = new RegExp(String.raw`File\.expand_path\(\s*${LITERAL}\s*,\s*$`, 'u');
const LITERALS = /"([^"\\\n$]*)"|'([^'\\\n$]*)'|\x60([^\x60\\\n$]*)\x60/gu;

/** How many directories above the program's own a location expression names (`.parent.parent`: one, `dirname(dirname(f))`: one). */
function stepsUp(location: string, up: string | undefined): number {
  if (up !== undefined) return up.startsWith('.parents') ? Number(/\d/u.exec(up)![0]) : up.split('.parent').length - 2;
  return Math.max(0, (location.match(/dirname\(/gu) ?? []).length - 1);
}

/** The texts of the literals a join, concatenation or pathlib division chain holds, in order. */
const literalTexts = (chain: string) => [...chain.matchAll(LITERALS)].map((match) => match[1] ?? match[2] ?? match[3] ?? '');

/** What follows a location expression, as a path below its directory: undefined where it is no file-relative spelling. */
function followingPath(before: string, after: string, file: boolean): string | undefined {
  const expanded = EXPANDED.exec(before);
  if (expanded !== null && /^\s*\)/u.test(after)) return literalTexts(expanded[0]).join('');
  // The file itself: only joined on, lexically (`__filename + "/x"` names no file).
  if (file) {
    const joined = JOINED.exec(after);
    return joined === null ? undefined : literalTexts(joined[0]).join('/');
  }
  // Inside a string: `${__dirname}/x`, f"{os.path.dirname(__file__)}/x", "#{__dir__}/x", Perl's "$FindBin::Bin/x".
  const interpolated = /[$#]?\{\s*$/u.test(before) ? /^\s*\}(\/[^\s"'`]*)/u.exec(after) : /^(\/[^\s"'`]*)/u.exec(after);
  if (interpolated !== null) return interpolated[1]!.slice(1);
  // `__dirname + "/x" + "/y"`, Perl's `dirname(__FILE__) . "/x"`: one string, a component only after a "/".
  const concatenated = CONCATENATED.exec(after);
  if (concatenated !== null) {
    const text = literalTexts(concatenated[0]).join('');
    return text.startsWith('/') ? text.slice(1) : undefined;
  }
  // `path.join(__dirname, "..", "lib")`, `os.path.join(d, "x")`, `File.join(__dir__, "x")`, `Path(__file__).parent / "x"`:
  // components; one written absolute ("/x") is read below the directory (node's path.join), as well as on its own as written.
  const components = JOINED.exec(after) ?? DIVIDED.exec(after) ?? JOINPATH.exec(after);
  return components === null ? undefined : literalTexts(components[0]).join('/');
}

/** The paths `text` builds from its file's own directory, relative to that directory. */
export function programRelativeNames(text: string): ProgramRelativeName[] {
  const names: ProgramRelativeName[] = [];
  const lines = text.split('\n');
  for (const [line, code] of lines.entries())
    for (const match of code.matchAll(LOCATION)) {
      const file = match.groups?.['file'] !== undefined;
      const following = followingPath(code.slice(0, match.index), code.slice(match.index + match[0].length), file);
      if (following === undefined) continue;
      // From the file itself, a path is one component deeper than from its directory: its first ".." is the directory.
      const up = file ? `${FILE_STEP}/` : '../'.repeat(stepsUp(match[0], match.groups?.['up']));
      // Not tidied: a `..` after a folder is walked through it by the kernel (lexical-climb.ts judges the name). Only
      // empty and `.` steps go, and the file's own first `..` (its directory).
      const steps = `${up}${following}`.split('/').filter((step) => step !== '' && step !== '.');
      if (file && steps[1] !== '..') continue; // below the file: names nothing
      const name = (file ? steps.slice(2) : steps).join('/') || '.';
      if (name !== '.' && plainWord(name)) names.push({ text: name, line });
    }
  return names;
}
