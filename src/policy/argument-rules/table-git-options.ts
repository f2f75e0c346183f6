// The value kinds and option groups the git subcommand rules share
// (table-git-read.ts, table-git-write.ts). Options that take a value list the
// arity git gives them: "optionalValue" where git takes a value only attached
// (--format=X, --color=WHEN, -U5), "value" where it also takes the next argument.
import type { OptionRule, ValueKind } from './rule-format.js';

/**
 * A revision, ref or pathspec: git resolves these inside the repository, which
 * the git-effects check covers. Never an option after "--", never a transport
 * ("ext::sh", "fd::3", "file://...") that could make git run a program or read elsewhere.
 */
export const REVISION_OR_PATHSPEC: ValueKind = {
  matches: /^(?!-.)(?![A-Za-z][A-Za-z0-9+.-]*::)(?!file:)/is,
  describe: 'a revision or a pathspec (not an option, not a transport such as ext:: or file://)',
};

/** Free text (a message, an author, a format, a date, a search pattern). Never starting with "-": it can then never be an option git reads differently. */
export const TEXT: ValueKind = { matches: /^(?!-)/, describe: 'text that does not start with "-"' };

/**
 * A remote's name, or an http(s) URL whose host permissions.net.allow lists: no local path, no ssh, no transport
 * helper. A name's URL is in the repository's config: the sandbox's proxy decides it when git connects.
 */
export const REMOTE: ValueKind = { anyOf: [{ matches: /^[A-Za-z0-9][A-Za-z0-9._-]*$/, describe: 'a remote name (origin)' }, 'url'] };

/** A fetch refspec: SRC or SRC:DST of ref names, optionally forced with "+". */
export const REFSPEC: ValueKind = {
  matches: /^\+?[A-Za-z0-9][A-Za-z0-9._*-]*(?:\/[A-Za-z0-9._*-]+)*(?::[A-Za-z0-9._*-]+(?:\/[A-Za-z0-9._*-]+)*)?$/,
  describe: 'a refspec (main, main:refs/remotes/origin/main)',
};

export const WHEN: ValueKind = { choices: ['always', 'never', 'auto'] };

export const CONFLICT_STYLE: ValueKind = { choices: ['merge', 'diff3', 'zdiff3'] };

/** The diff options of log, show, diff, stash show: output shape, whitespace, pickaxe. No --output, --ext-diff, --textconv, -O, --no-index. */
export const DIFF_OPTIONS: readonly OptionRule[] = [
  { short: 'p', long: 'patch' },
  { short: 's', long: 'no-patch' },
  { short: 'U', long: 'unified', optionalValue: 'number' },
  { long: 'raw' },
  { long: 'stat', optionalValue: { matches: /^[0-9]+(?:,[0-9]*){0,2}$/, describe: 'WIDTH[,NAME-WIDTH[,COUNT]]' } },
  { long: 'numstat' },
  { long: 'shortstat' },
  { long: 'summary' },
  { long: 'name-only' },
  { long: 'name-status' },
  { long: 'color', optionalValue: WHEN },
  { long: 'no-color' },
  { long: 'word-diff', optionalValue: { choices: ['color', 'plain', 'porcelain', 'none'] } },
  { long: 'no-renames' },
  { long: 'diff-filter', value: { matches: /^[ACDMRTUXBacdmrtuxb]+\*?$/, describe: 'letters of ACDMRTUXB' } },
  { short: 'w', long: 'ignore-all-space' },
  { short: 'b', long: 'ignore-space-change' },
  { long: 'ignore-blank-lines' },
  { long: 'minimal' },
  { long: 'patience' },
  { long: 'histogram' },
  { long: 'diff-algorithm', value: { choices: ['default', 'myers', 'minimal', 'patience', 'histogram'] } },
  { short: 'z' },
  { long: 'no-ext-diff' },
  { long: 'no-textconv' },
  { long: 'exit-code' },
  { long: 'quiet' },
  { long: 'full-index' },
  { long: 'abbrev', optionalValue: 'number' },
  { short: 'R' },
  { long: 'no-prefix' },
  { short: 'W', long: 'function-context' },
  { short: 'S', value: TEXT },
  { short: 'G', value: TEXT },
  { long: 'pickaxe-regex' },
  { long: 'check' },
];

/** Which commits: limits, order, search. "-n N", "--max-count=N" and "-5" (numericOption) all count. */
export const REVISION_OPTIONS: readonly OptionRule[] = [
  { short: 'n', long: 'max-count', value: 'number' },
  { long: 'skip', value: 'number' },
  { long: 'since', value: TEXT },
  { long: 'after', value: TEXT },
  { long: 'until', value: TEXT },
  { long: 'before', value: TEXT },
  { long: 'author', value: TEXT },
  { long: 'committer', value: TEXT },
  { long: 'grep', value: TEXT },
  { long: 'all-match' },
  { long: 'invert-grep' },
  { short: 'i', long: 'regexp-ignore-case' },
  { short: 'E', long: 'extended-regexp' },
  { short: 'F', long: 'fixed-strings' },
  { long: 'merges' },
  { long: 'no-merges' },
  { long: 'first-parent' },
  { long: 'all' },
  { long: 'branches' },
  { long: 'tags' },
  { long: 'remotes' },
  { long: 'reverse' },
  { long: 'topo-order' },
  { long: 'date-order' },
  { long: 'left-right' },
  { long: 'cherry-pick' },
  { long: 'ancestry-path' },
  { long: 'no-walk' },
];

/** How each commit is shown (log, show). --format and --pretty take their value only attached, as git does. */
export const FORMAT_OPTIONS: readonly OptionRule[] = [
  { long: 'oneline' },
  { long: 'pretty', optionalValue: TEXT },
  { long: 'format', optionalValue: TEXT },
  { long: 'abbrev-commit' },
  { long: 'no-abbrev-commit' },
  { long: 'decorate', optionalValue: { choices: ['short', 'full', 'auto', 'no'] } },
  { long: 'no-decorate' },
  { long: 'date', value: TEXT },
  { long: 'relative-date' },
  { long: 'parents' },
  { long: 'graph' },
  { long: 'follow' },
];
