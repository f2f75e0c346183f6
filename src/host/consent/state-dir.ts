// Where zotbox keeps state (spec Part A, Homes and names): $ZOTBOX_HOME, else
// $XDG_STATE_HOME/zotbox, else ~/.local/state/zotbox (macOS: ~/Library/
// Application Support/zotbox). Inside it: agents/<name>/consents/,
// agents/<name>/data/ and sessions/agents/<name>/. Callers pass the environment:
// nothing here reads process.env.
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileSystemError } from '../../errors.js';

export interface StateEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly homeDirectory: string;
  readonly platform: NodeJS.Platform;
}

export function resolveStateDirectory({ env, homeDirectory, platform }: StateEnvironment): string {
  const explicit = env['ZOTBOX_HOME'];
  if (explicit !== undefined && explicit !== '') return path.resolve(explicit);
  const xdg = env['XDG_STATE_HOME'];
  if (xdg !== undefined && xdg !== '' && path.isAbsolute(xdg)) return path.join(xdg, 'zotbox');
  if (platform === 'darwin') return path.join(homeDirectory, 'Library', 'Application Support', 'zotbox');
  return path.join(homeDirectory, '.local', 'state', 'zotbox');
}

/** The agent's own data directory, which ${agent_data} expands to. */
export function agentDataDirectory(stateDirectory: string, agentName: string): string {
  return path.join(stateDirectory, 'agents', agentName, 'data');
}

/** The agent's session directory: sessions are scoped per agent. */
export function agentSessionsDirectory(stateDirectory: string, agentName: string): string {
  return path.join(stateDirectory, 'sessions', 'agents', agentName);
}

/**
 * Creates (for every run) the agent's data directory and its sessions directory,
 * both 0700 whatever the umask, and returns their paths.
 */
export function ensureAgentDirectories(stateDirectory: string, agentName: string): { data: string; sessions: string } {
  const data = agentDataDirectory(stateDirectory, agentName);
  const sessions = agentSessionsDirectory(stateDirectory, agentName);
  for (const directory of [data, sessions]) {
    try {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
      chmodSync(directory, 0o700);
    } catch (cause) {
      throw fileSystemError('create', directory, cause);
    }
  }
  return { data, sessions };
}
