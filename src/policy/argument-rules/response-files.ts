// Programs built on libiberty (binutils' strings, objdump, nm...) replace any
// argument "@FILE" with the words in FILE before reading their options, so
// "@FILE" reads a file the rule cannot type and brings options it never saw
// (and echoes FILE's words in errors). Named check: every such argument is denied.
import { deny as no, type Check } from '../shell-check.js';
import type { ParsedArguments } from './parse-arguments.js';
import type { ArgumentContext } from './value-kinds.js';

export function checkNoResponseFiles(name: string, parsed: ParsedArguments, _context: ArgumentContext): Check<null> {
  // Positionals and option values are every argument that does not start with "-".
  const words = [...parsed.positionals, ...parsed.values.map((v) => v.text)];
  const atFile = words.find((word) => word.startsWith('@'));
  if (atFile === undefined) return { ok: true, value: null };
  return no(
    'ZB_POLICY_SHELL_ARGUMENT',
    `${name}: ${JSON.stringify(atFile)} is not allowed: ${name} reads arguments starting with "@" as a file of more options, which zotbox cannot check. Fix: for a file whose name starts with @, write ./${atFile}.`,
  );
}
