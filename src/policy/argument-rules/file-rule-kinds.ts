// Value kinds and option lists shared by the file readers' and writers' rules
// (table-files*.ts): the shapes of coreutils' modes, sizes, suffixes and WHEN
// words. Data only; a shape here is stricter than the program, never looser.
import type { OptionRule, ValueKind } from './rule-format.js';

export const HELP: readonly OptionRule[] = [{ long: 'help' }, { long: 'version' }];

/** --color[=WHEN], --classify[=WHEN], --hyperlink[=WHEN]: the three spellings every coreutils program accepts. */
export const WHEN: ValueKind = { choices: ['always', 'auto', 'never'] };

/** --backup[=CONTROL] of cp, mv and ln. */
export const BACKUP_CONTROL: ValueKind = { choices: ['none', 'off', 'numbered', 't', 'existing', 'nil', 'simple', 'never'] };

/** A backup suffix is appended to the destination's name: with a "/" it would name another directory. */
export const BACKUP_SUFFIX: ValueKind = { matches: /^[^/]+$/, describe: 'a backup suffix without "/" (such as ~ or .bak)' };

const SYMBOLIC_CLAUSE = '[ugoa]*(?:[-+=](?:[rwxXst]*|[ugo]))+';
const OCTAL = '[0-7]{1,4}';

/**
 * chmod's MODE operand. A mode starting with "-" (chmod -w f) is read as an
 * option, so the rule asks for the spelling that cannot be: a-w, u-x, 644.
 */
export const MODE_OPERAND: ValueKind = {
  // The lookahead: even after "--", where chmod would take "-w" as a mode, one spelling for every mode keeps the rule simple.
  matches: new RegExp(`^(?!-)(?:${OCTAL}|[+=][0-7]+|${SYMBOLIC_CLAUSE})(?:,(?:[-+=][0-7]+|${SYMBOLIC_CLAUSE}))*$`),
  describe: 'a mode such as 644, u+x, a-w or go=r (write a mode that removes a permission with its who letters: a-w, not -w)',
};

/** A mode given as an option value (mkdir -m): the value is never read as an option, so "-w" is fine. */
export const MODE_VALUE: ValueKind = {
  matches: new RegExp(`^(?:${OCTAL}|[-+=][0-7]+|${SYMBOLIC_CLAUSE})(?:,(?:[-+=][0-7]+|${SYMBOLIC_CLAUSE}))*$`),
  describe: 'a mode such as 755, u+x or go-w',
};

/** --block-size: a unit, with or without a count (M, 1K, 4096, 1MB). */
export const BLOCK_SIZE: ValueKind = {
  matches: /^(?:[0-9]+(?:[KMGTPEZY](?:iB|B)?|kB)?|(?:[KMGTPEZY](?:iB|B)?|kB))$/,
  describe: 'a block size such as 1K, M, 4096 or 1MB',
};

/** Byte counts of od and cmp: decimal or 0x hex, with an optional multiplier (b is 512). */
export const BYTE_COUNT: ValueKind = {
  matches: /^(?:0[xX][0-9a-fA-F]+|[0-9]+)(?:[bKMGTPEZY]|[kKMGTPEZY]i?B)?$/,
  describe: 'a byte count such as 16, 0x10, 4K or 1MB',
};

/** touch -d and date -d: any date text except a TZ="..." prefix, which makes the program open a time-zone file by path. */
export const DATE_TEXT: ValueKind = {
  matches: /^(?![\s\S]*TZ=)[\s\S]+$/i,
  describe: 'a date such as "2024-01-02 10:00", "yesterday" or @1700000000, without TZ="..." (a time-zone file would be opened by path)',
};
