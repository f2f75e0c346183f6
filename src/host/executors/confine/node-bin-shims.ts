// The shell shim pnpm (and npm's cmd-shim, for Cygwin/MSYS) writes at node_modules/.bin/NAME in place of a link: it
// computes its own directory (`basedir=$(dirname "$(echo "$0" | sed -e 's,\\,/,g')")`, rewritten on Cygwin), may
// export NODE_PATH and PATH, and runs `"$basedir/REL"` with node (`"$basedir/node"` where that is executable).
// Recognised only whole: every line is one of the shapes cmd-shim writes, with literal values; anything else leaves the
// text to the shell reading, where the computed `$basedir` is unresolved (closed world). Pure, no I/O.

/** cmd-shim's own-directory line: what `dirname "$0"` is once backslashes (none on Linux) are made slashes. */
const BASEDIR_LINE = String.raw`basedir=$(dirname "$(echo "$0" | sed -e 's,\\,/,g')")`;

/** The Cygwin/MSYS rewrite of `$basedir` (`uname` never says so on Linux, where zotbox runs), in cmd-shim's two forms. */
const CYGWIN_BLOCKS: readonly (readonly string[])[] = [
  ['case `uname` in', '*CYGWIN*) basedir=`cygpath -w "$basedir"`;;', 'esac'],
  ['case `uname` in', '*CYGWIN*|*MINGW*|*MSYS*) basedir=`cygpath -w "$basedir"`;;', 'esac'],
  ['case `uname` in', '*CYGWIN*|*MINGW*|*MSYS*)', 'if command -v cygpath > /dev/null 2>&1; then', 'basedir=`cygpath -w "$basedir"`', 'fi', ';;', 'esac'],
];

/** A value written out: no quote, expansion, escape or command substitution in it. */
const LITERAL = String.raw`[^"$\x60\\\n]*`;
/** A word of the line that runs the program: `"$basedir/REL"`, a quoted or plain literal (an option). */
const RUN_WORD = String.raw`(?:"\$basedir/${LITERAL}"|"${LITERAL}"|[^\s"'$\x60\\|;&<>()#=]+)`;
/** npm's shebang variables before the program (`exec NODE_ENV=production "$basedir/node" ...`); never `basedir`. */
const RUN_ASSIGNMENT = String.raw`(?!basedir=)[A-Za-z_][A-Za-z0-9_]*=[^\s"'$\x60\\|;&<>()#]*`;

/** The other lines cmd-shim writes (trimmed), each with literal values only. */
const SHIM_LINES: readonly RegExp[] = [
  /^$/u,
  /^#/u, // pnpm's marker comment naming the target
  new RegExp(String.raw`^export PATH="${LITERAL}:\$PATH"$`, 'u'),
  /^if \[ -z "\$NODE_PATH" \]; then$/u,
  new RegExp(String.raw`^export NODE_PATH="(${LITERAL})(?::\$NODE_PATH)?"$`, 'u'),
  new RegExp(String.raw`^if \[ -x "\$basedir/${LITERAL}" \]; then$`, 'u'),
  /^(else|fi|ret=\$\?|exit \$ret|exit \$\?)$/u,
  new RegExp(String.raw`^(?:exec )?(?:${RUN_ASSIGNMENT} +)*${RUN_WORD}(?: +${RUN_WORD})* +"\$@"$`, 'u'),
];

export interface NodeBinShim {
  /** The shim with its own-directory line spelled as `$(dirname "$0")` and the Cygwin block blanked (line numbers kept). */
  readonly script: string;
  /** The NODE_PATH entries it exports for what it runs (before the user's own), when it exports one. */
  readonly nodePath?: readonly string[];
}

/**
 * `text` read as cmd-shim's shim run as `shimFile` ($0), or undefined when it is not exactly one, or when $0 holds a
 * backslash (which the shim's sed, and dash's echo, would rewrite).
 */
export function nodeBinShim(text: string, shimFile: string): NodeBinShim | undefined {
  const lines = text.split('\n');
  if (shimFile.includes('\\') || lines[0] !== '#!/bin/sh' || lines[1] !== BASEDIR_LINE) return undefined;
  const trimmed = lines.map((line) => line.trim());
  const start = trimmed.indexOf('case `uname` in');
  const block = CYGWIN_BLOCKS.find((each) => each.every((line, index) => trimmed[start + index] === line));
  if (start === -1 || block === undefined) return undefined;
  const rest = [...trimmed.slice(2, start), ...trimmed.slice(start + block.length)];
  if (!rest.every((line) => SHIM_LINES.some((shape) => shape.test(line)))) return undefined;
  const nodePath = rest.flatMap((line) => /^export NODE_PATH="([^"]*?)(?::\$NODE_PATH)?"$/u.exec(line)?.[1]?.split(':') ?? []).filter((entry) => entry !== '');
  const script = lines.map((line, index) => (index === 1 ? 'basedir=$(dirname "$0")' : index >= start && index < start + block.length ? '' : line)).join('\n');
  return { script, ...(nodePath.length > 0 ? { nodePath: [...new Set(nodePath)] } : {}) };
}
