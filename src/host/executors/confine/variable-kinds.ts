// What an environment variable's value is to the tools that read it, for the
// readers of tool files and scripts (tool-file-references.ts, shell-command-words.ts):
// a search path of directories tools load code or configuration from, a set of an
// interpreter's options, or data. Closed where it counts: any variable not on the
// data list is read for the files and directories it names.
import { type InterpreterName, interpreterReading } from './interpreter-operands.js';

/**
 * Variables whose every entry is a directory tools search for programs, libraries, modules or configuration
 * (PATH, PYTHONPATH, PERL5LIB, RUBYLIB, XDG_CONFIG_HOME, CARGO_HOME, GOROOT...): protected whole, with or without a "/".
 */
export const SEARCH_VARIABLES = /(PATH|LIB|LIBS|DIR|DIRS|HOME|ROOT|PREFIX|INC|INCLUDE)$/u;

/** The closed list of variables whose directory is data, never code or configuration: temporary files, data, logs, outputs. */
export const DATA_VARIABLES = /^(TMPDIR|TMP|TEMP|TEMPDIR)$|(^|_)(DATA|LOG|LOGS|OUTPUT|OUT|UPLOAD|UPLOADS|FIXTURES|STORAGE)(_(DIR|FILE|ROOT|PATH))?$/u;

/** Variables that hold options an interpreter reads on every start (PERL5OPT="-Itools -MLint"), by interpreter. */
export const OPTION_VARIABLES: ReadonlyMap<string, string> = new Map([
  ['PERL5OPT', 'perl'],
  ['NODE_OPTIONS', 'node'],
  ['RUBYOPT', 'ruby'],
]);

/**
 * The files and directories an interpreter's option variable set for a command loads (`NODE_OPTIONS="--require
 * ./tools/x.js" node ...`, `PERL5OPT=-Itools`): the whole value split into options as the program splits it (at blanks,
 * node's "..." kept whole), read by that interpreter's grammar. Nothing for any other word.
 */
export function optionVariableNames(word: string): { readonly names: InterpreterName[]; readonly computed: string[] } {
  const assignment = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/su.exec(word);
  const program = assignment === null ? undefined : OPTION_VARIABLES.get(assignment[1]!);
  if (program === undefined) return { names: [], computed: [] };
  const options = [...assignment![2]!.matchAll(/"([^"]*)"|(\S+)/gu)].map((match) => match[1] ?? match[2]!);
  // What the options run that zotbox cannot look up (a preload it cannot carry as a name) is the caller's to refuse.
  const reading = interpreterReading(program, options);
  return { names: [...reading.names], computed: [...(reading.computed ?? [])] };
}
