// Where zotbox keeps state (spec Part A, Homes and names): $ZOTBOX_HOME, else
// $XDG_STATE_HOME/zotbox, else ~/.local/state/zotbox (macOS: ~/Library/
// Application Support/zotbox). Inside it: agents/<name>/consents/,
// agents/<name>/data/ and sessions/agents/<name>/. Callers pass the environment:
// nothing here reads process.env.
import path from 'node:path';

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
