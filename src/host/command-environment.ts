// The fixed environment commands run in: the search path the gate looks
// programs up in and the executors run them with, and the directories from
// which a program may be written as an absolute path (gate-rules §2, §5).
// Fixed, so that what the gate checked is what runs, whatever the user's PATH.

export const COMMAND_SEARCH_PATH: readonly string[] = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

export const TRUSTED_PROGRAM_DIRECTORIES: readonly string[] = COMMAND_SEARCH_PATH;
