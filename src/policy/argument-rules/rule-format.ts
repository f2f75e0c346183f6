// The closed-world argument rule format (issue 10 item 1, gate-rules §3). A rule
// lists what a program may be given: options in their short and long spellings
// with the kind of their value, positionals by kind, and subcommands, each with
// a rule of its own. Data only: parse-arguments.ts reads argv against a rule the
// way the program's getopt would, and anything the rule does not list is denied.

/**
 * What an option value or a positional is, and so how it is checked
 * (value-kinds.ts). Paths are decided against the scopes like the file tools.
 */
export type ValueKind =
  | 'read' // a path the program reads (a file, or a directory it may walk)
  | 'write' // a path the program creates, changes or removes
  | 'hardlink-source' // the existing file a hard link gives a second name: needs a write scope
  | 'symlink-target' // what a new symbolic link points at, resolved from the link's directory: inside the scopes
  | 'pattern' // a regular expression or glob matched by the program itself
  | 'literal' // text with no meaning to the system: a message, a format, a name
  | 'number' // an integer, optionally signed
  | 'size' // a number with an optional unit suffix (10K, 1MiB)
  | 'url' // an http:// or https:// URL, without curl's globbing
  | 'sed-script' // program text, parsed by program-text.ts
  | 'awk-program'
  | 'jq-filter'
  | 'module-name' // a dotted identifier
  | 'skill-module' // python -m NAME of a module in the skill folder the command runs in (skill-module.ts)
  | 'working-directory' // a directory the program changes into before it does anything else (git -C): every later check runs from there
  | { readonly choices: readonly string[] } // one of these words exactly
  | { readonly matches: RegExp; readonly describe: string; readonly path?: 'read' | 'write'; readonly mustExist?: boolean } // a word of this shape; with `path`, also a path checked like 'read' or 'write' (a script that must not be "-" or "+cmd")
  // The kind the marks decide, once every option is read (tar -f: written when creating, read when listing).
  | { readonly byMark: readonly (readonly [mark: string, kind: ValueKind])[]; readonly otherwise: ValueKind }
  | { readonly allOf: readonly ValueKind[] } // passes every one of these (a local path: 'read' and no "host:")
  // Passes one of these, tried in order (awk's operands: var=value, else a file); a value that fits a shape is not checked as a path.
  | { readonly anyOf: readonly ValueKind[] };

export interface OptionRule {
  /** One letter, for "-x" and bundles like "-xyz". */
  readonly short?: string;
  /** The name without dashes, for "--name", "--name=value" and "--name value". */
  readonly long?: string;
  /** For programs that spell long options with one dash (find's -name, go's -run). */
  readonly word?: string;
  /** The kind of the value it requires: attached ("-n5", "--lines=5") or the next argument. */
  readonly value?: ValueKind;
  /** A value it may take only attached to a long option ("--color=always"). */
  readonly optionalValue?: ValueKind;
  /** Several values, each the next argument, never attached (jq --arg NAME VALUE). Long and word spellings only. */
  readonly values?: readonly ValueKind[];
  /** A mark for the rest of the rule: which positionals apply (flagPositionals) or what a named check must know. */
  readonly sets?: string;
  /** Options end after it and its value, as after "--": python's -m MODULE, whose arguments belong to the module. */
  readonly endsOptions?: boolean;
  /**
   * The value names what reads the rest of the arguments, as a subcommand does
   * (python's -m MODULE): only these names, each with its own rule. Implies endsOptions.
   */
  readonly selects?: Readonly<Record<string, ProgramRule>>;
  /**
   * With `selects`: a name it does not list is a value of this kind, and this rule's positionals take every later
   * argument, none read as an option (python -m of a skill's own module, whose arguments are its own).
   */
  readonly selectsOtherwise?: { readonly value: ValueKind; readonly rule: ProgramRule };
}

/** How the non-option arguments read: leading ones by kind, then the rest, with the last one possibly different. */
export interface PositionalRule {
  /** The first positionals, in order (grep's PATTERN, chmod's MODE). */
  readonly leading?: readonly ValueKind[];
  /** The kind of every other positional; absent when no others are allowed. */
  readonly rest?: ValueKind;
  /** The kind of the last positional when there are at least two after the leading ones (cp's destination). */
  readonly last?: ValueKind;
  /** With `last`: a single positional names both a source and, implied, the destination cwd/basename (ln -s TARGET). */
  readonly lastImpliedFromSingle?: boolean;
  /** Fewest positionals (leading included) the command needs. */
  readonly min?: number;
  /** The operand the program works on when given none after the leading ones (grep -r and rg search "."), checked as `rest`. */
  readonly implied?: string;
}

export interface ProgramRule {
  /** Why the rule is as strict as it is: quoted in every denial. */
  readonly why: string;
  readonly options: readonly OptionRule[];
  readonly positionals: PositionalRule;
  /** When an option set this mark (or every mark of a list), these positionals apply instead (ln -s, grep -e, sed -e). Checked in order; the first match wins. */
  readonly flagPositionals?: readonly (readonly [mark: string | readonly string[], positionals: PositionalRule])[];
  /** False: the first positional ends the options, as in POSIX getopt (find, awk's program). Default: GNU permutation. */
  readonly permute?: boolean;
  /** "-NUM" is a value of this kind (head -5, tail -20). */
  readonly numericOption?: boolean;
  /** The first argument without a dash is a bundle of option letters (tar cf x.tar): recognised, and denied with the dashed spelling to use. */
  readonly oldStyleKeys?: boolean;
  /** The first positional names a subcommand, whose own rule reads the rest; `options` are those allowed before it. */
  readonly subcommands?: Readonly<Record<string, ProgramRule>>;
  /** A named check that data cannot express (git's effects on the worktree), run after the values are checked. */
  readonly check?: NamedCheck;
  /** A parser of its own for a program whose arguments are not getopt's (find's expression); it classifies, value-kinds.ts checks. */
  readonly parser?: NamedParser;
  /** Marks this rule always carries (rg and find recurse by default). */
  readonly marks?: readonly string[];
}

export type NamedCheck = 'git-effects' | 'copy-effects' | 'no-response-files';
export type NamedParser = 'find-expression';
