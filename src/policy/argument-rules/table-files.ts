// Argument rules for file readers and writers (coreutils and friends): their
// paths obey the same scopes as the file tools, and links cannot widen them.
// One family, kept in four files by what the programs do to files.
import type { ProgramRule } from './rule-format.js';
import { LINK_RULES } from './table-files-link.js';
import { READER_RULES } from './table-files-read.js';
import { UTILITY_RULES } from './table-files-utility.js';
import { WRITER_RULES } from './table-files-write.js';

export const FILE_RULES: readonly (readonly [string, ProgramRule])[] = [...READER_RULES, ...WRITER_RULES, ...LINK_RULES, ...UTILITY_RULES];
