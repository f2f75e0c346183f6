// Argument rules for archives and copies: tar (create and list), zip (create),
// unzip (list and test), rsync (local copies). Nothing is extracted: an archive
// can hold links and absolute names that point anywhere. No archive or copy may
// name a remote host (tar and rsync read HOST:PATH as one).
import type { ProgramRule, ValueKind } from './rule-format.js';
import { WRITES_CONTENTS_ONLY } from './argument-effects.js';
import { FOLLOWS_LINKS, KEEPS_LINKS } from './value-kinds.js';

const CREATE = 'create'; // tar -c: -f is written, operands are read
const LIST = 'list'; // tar -t, unzip -l/-t/-v: nothing is extracted

const LOCAL: ValueKind = { matches: /^[^:]*$/, describe: 'a local path without ":" (HOST:PATH names a file on another machine)' };

const TAR: ProgramRule = {
  marks: [WRITES_CONTENTS_ONLY],
  why: 'only creating (c) and listing (t) archives is allowed, with the archive (-f) and the files it reads inside the scopes; extraction, -C, -P and programs (-I, --to-command, --checkpoint-action) are not',
  options: [
    { long: 'help' },
    { long: 'version' },
    { short: 'c', long: 'create', sets: CREATE },
    { short: 't', long: 'list', sets: LIST },
    { short: 'f', long: 'file', value: { allOf: [LOCAL, { byMark: [[CREATE, 'write']], otherwise: 'read' }] } },
    { short: 'v', long: 'verbose' },
    { short: 'z', long: 'gzip' },
    { short: 'j', long: 'bzip2' },
    { short: 'J', long: 'xz' },
    { long: 'zstd' },
    { short: 'a', long: 'auto-compress' },
    { long: 'exclude', value: 'pattern' },
    { short: 'X', long: 'exclude-from', value: 'read' },
    { long: 'exclude-vcs' },
    { short: 'h', long: 'dereference', sets: FOLLOWS_LINKS },
  ],
  oldStyleKeys: true,
  // Without c or t, tar would extract (x) or do something else this rule does not list: no operands.
  positionals: {},
  flagPositionals: [
    [CREATE, { rest: 'read' }],
    [LIST, { rest: 'pattern' }],
  ],
};

// zip writes NAME.zip for a NAME without a suffix, and unzip reads NAME.zip when NAME does not exist: the name
// checked must be the name used, so it ends in .zip (and, for unzip, exists).
const ZIP_ARCHIVE_WRITTEN: ValueKind = { matches: /\.zip$/i, describe: 'an archive name ending in .zip (zip adds .zip to any other name)', path: 'write' };
const ZIP_ARCHIVE_READ: ValueKind = { matches: /\.zip$/i, describe: 'an existing archive ending in .zip (unzip tries NAME.zip when NAME does not exist)', path: 'read', mustExist: true };

const ZIP: ProgramRule = {
  why: 'it writes the archive (its first argument) and reads the files after it, inside the scopes; zip follows links (unless -y), so every link in them is then checked; -T and -TT would run programs',
  options: [
    { short: 'r', long: 'recurse-paths' },
    { short: 'q', long: 'quiet' },
    { short: 'v', long: 'verbose' },
    { short: 'j', long: 'junk-paths' },
    { short: 'y', long: 'symlinks', sets: KEEPS_LINKS },
    { short: 'u', long: 'update' },
  ],
  numericOption: true,
  // zip stores what a link points to unless -y is given, which stores the links themselves.
  marks: [FOLLOWS_LINKS, WRITES_CONTENTS_ONLY],
  positionals: { leading: [ZIP_ARCHIVE_WRITTEN], rest: 'read', min: 1 },
};

const UNZIP: ProgramRule = {
  why: 'only listing and testing archives is allowed (-l, -t, -v); extraction can write links and names outside the scopes',
  options: [{ short: 'l', sets: LIST }, { short: 't', sets: LIST }, { short: 'v', sets: LIST }, { short: 'q' }],
  // unzip reads options only before the archive; after it come member names (and -x, -d lists).
  permute: false,
  positionals: {},
  flagPositionals: [[LIST, { leading: [ZIP_ARCHIVE_READ], rest: 'pattern', min: 1 }]],
};

const RSYNC: ProgramRule = {
  why: 'local copies only: it reads its sources and writes its last argument, inside the scopes; no HOST:PATH, no remote shell (-e, --rsync-path); -L follows links, which cannot lead outside the scopes',
  options: [
    { short: 'a', long: 'archive' },
    { short: 'r', long: 'recursive' },
    { short: 'v', long: 'verbose' },
    { short: 'q', long: 'quiet' },
    { short: 'n', long: 'dry-run' },
    { short: 'u', long: 'update' },
    { short: 'c', long: 'checksum' },
    { short: 't', long: 'times' },
    { short: 'p', long: 'perms' },
    { short: 'l', long: 'links' },
    { short: 'L', long: 'copy-links', sets: FOLLOWS_LINKS },
    { long: 'copy-unsafe-links', sets: FOLLOWS_LINKS },
    { long: 'safe-links' },
    { short: 'H', long: 'hard-links' },
    { short: 'h', long: 'human-readable' },
    { short: 'i', long: 'itemize-changes' },
    { short: 'P' },
    { long: 'progress' },
    { long: 'stats' },
    { long: 'delete' },
    { long: 'exclude', value: 'pattern' },
    { long: 'include', value: 'pattern' },
    { long: 'exclude-from', value: 'read' },
    { long: 'include-from', value: 'read' },
    { long: 'ignore-existing' },
    { long: 'size-only' },
    { long: 'mkpath' },
  ],
  positionals: { rest: { allOf: [LOCAL, 'read'] }, last: { allOf: [LOCAL, 'write'] }, min: 1 },
};

export const ARCHIVE_RULES: readonly (readonly [string, ProgramRule])[] = [
  ['tar', TAR],
  ['zip', ZIP],
  ['unzip', UNZIP],
  ['rsync', RSYNC],
];
