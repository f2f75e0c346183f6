// The fixed environment commands run in: the search path the gate looks
// programs up in and the executors run them with, and the directories from
// which a program may be written as an absolute path (gate-rules §2, §5).
// Fixed, so that what the gate checked is what runs, whatever the user's PATH.

export const COMMAND_SEARCH_PATH: readonly string[] = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

export const TRUSTED_PROGRAM_DIRECTORIES: readonly string[] = COMMAND_SEARCH_PATH;

/**
 * The complete environment of every command an agent runs (gate-rules §5): a
 * fixed PATH, HOME in the agent's own data directory, no pagers, no git or
 * terminal prompts, no global or system git configuration, and nothing from the
 * user's environment (no tokens, no keys).
 */
export function commandEnvironment(agentData: string, assignments: Readonly<Record<string, string>> = {}): Record<string, string> {
  return {
    PATH: COMMAND_SEARCH_PATH.join(':'),
    HOME: agentData,
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    NO_COLOR: '1',
    ...assignments,
  };
}
