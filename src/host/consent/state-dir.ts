// Where zotbox keeps state (spec Part A, Homes and names): $ZOTBOX_HOME, else
// $XDG_STATE_HOME/zotbox, else ~/.local/state/zotbox (macOS: ~/Library/
// Application Support/zotbox). Inside it, each agent has its own directory,
// agents/<name>-<key>/ (agent-directory.ts). Callers pass the environment:
// nothing here reads process.env (stateVariablesOf picks from what it is given). A state directory that exists but cannot be one
// (a file, under a file) is an error, never read as "nothing stored yet".
import { accessSync, constants, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { AGENT_NAME_PATTERN } from '../../policy/manifest-fields.js';

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

/** Only the variables that choose the state directory (ZOTBOX_HOME, XDG_STATE_HOME), from `env`: what a library run without `env` follows. */
export function stateVariablesOf(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  return { ZOTBOX_HOME: env['ZOTBOX_HOME'], XDG_STATE_HOME: env['XDG_STATE_HOME'] };
}

/** Which setting chose the state directory, for messages that must say how to change it. */
export type StateDirectoryOrigin = 'ZOTBOX_HOME' | 'XDG_STATE_HOME' | 'default' | 'the stateDirectory option';

/** The origin resolveStateDirectory follows for this environment (the same precedence). */
export function stateDirectoryOrigin(env: Readonly<Record<string, string | undefined>>): StateDirectoryOrigin {
  const explicit = env['ZOTBOX_HOME'];
  if (explicit !== undefined && explicit !== '') return 'ZOTBOX_HOME';
  const xdg = env['XDG_STATE_HOME'];
  return xdg !== undefined && xdg !== '' && path.isAbsolute(xdg) ? 'XDG_STATE_HOME' : 'default';
}

const ORIGIN_TEXT: Readonly<Record<StateDirectoryOrigin, string>> = {
  ZOTBOX_HOME: 'it is $ZOTBOX_HOME',
  XDG_STATE_HOME: 'it is $XDG_STATE_HOME/zotbox',
  default: 'it is the default, as neither ZOTBOX_HOME nor an absolute XDG_STATE_HOME is set',
  'the stateDirectory option': 'it was passed as the stateDirectory option',
};

function unusableStateDirectory(directory: string, origin: StateDirectoryOrigin, problem: string, cause?: unknown): ZotboxError {
  return new ZotboxError(
    'ZB_IO_FAILED',
    `the zotbox state directory ${directory} ${problem}; ${ORIGIN_TEXT[origin]}. It holds consent receipts, sessions and agent data. Fix: point ZOTBOX_HOME at a directory you can read and write (one that does not exist yet is created), or move what is at ${directory} away.`,
    { cause, details: { path: directory, origin, problem } },
  );
}

/**
 * Throws ZB_IO_FAILED unless the state directory is a directory this process
 * can search and read (`write`: and write), or does not exist yet (it is created
 * on the first write). Called before any command reads or writes state.
 */
export function requireUsableStateDirectory(directory: string, { origin, write = false }: { readonly origin: StateDirectoryOrigin; readonly write?: boolean }): void {
  let isDirectory: boolean;
  try {
    isDirectory = statSync(directory).isDirectory();
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException).code;
    if (errno === 'ENOENT') return;
    const reason = errno === 'ENOTDIR' ? 'a part of its path is a file, not a directory' : errno === 'EACCES' ? 'permission denied' : String(errno ?? cause);
    throw unusableStateDirectory(directory, origin, `is not reachable: ${reason} (${errno ?? 'error'})`, cause);
  }
  if (!isDirectory) throw unusableStateDirectory(directory, origin, 'is not a directory');
  try {
    accessSync(directory, constants.R_OK | constants.X_OK | (write ? constants.W_OK : 0));
  } catch (cause) {
    throw unusableStateDirectory(directory, origin, `cannot be ${write ? 'read and written' : 'read'} by you`, cause);
  }
}

/**
 * An agent name given by the user (consent list NAME, sessions list NAME), checked
 * before it becomes a path component: only a name a manifest could declare, so
 * never "..", "/" or an empty string. Throws ZB_OPTION_INVALID otherwise.
 */
export function requireAgentName(name: string): string {
  if (AGENT_NAME_PATTERN.test(name)) return name;
  throw new ZotboxError(
    'ZB_OPTION_INVALID',
    `${JSON.stringify(name)} is not an agent name: names use lowercase letters, digits, dots, hyphens and underscores, and start and end with a letter or digit (the "name" in manifest.json).`,
    { details: { name } },
  );
}

/** Whether a directory entry could be an agent's directory (zotbox makes no others). */
export function isAgentName(name: string): boolean {
  return AGENT_NAME_PATTERN.test(name);
}

/**
 * The entries of a directory in the state directory, none when it does not exist
 * yet. `strayIsEmpty`: an agent's directory whose path meets a file (which zotbox
 * never makes there) holds nothing either. Any other failure is ZB_IO_FAILED, never
 * read as "nothing stored".
 */
export function readStateEntries(directory: string, { strayIsEmpty = false }: { readonly strayIsEmpty?: boolean } = {}): string[] {
  try {
    return readdirSync(directory);
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException).code;
    if (errno === 'ENOENT' || (strayIsEmpty && errno === 'ENOTDIR')) return [];
    throw fileSystemError('list', directory, cause);
  }
}

/**
 * Refuses a directory in the state directory that a symbolic link (or a link
 * anywhere between it and the state directory) leads elsewhere: zotbox makes
 * none there, so one was planted, and following it would let listing, deleting
 * or writing state reach files outside (issue 13 review). The state directory
 * itself may be a link (the user's choice). A directory not made yet is fine.
 */
export function requireNoLinkBelow(stateDirectory: string, directory: string): void {
  let real: string;
  let realState: string;
  try {
    realState = realpathSync(stateDirectory);
    real = realpathSync(directory);
  } catch (cause) {
    const errno = (cause as NodeJS.ErrnoException).code;
    if (errno === 'ENOENT' || errno === 'ENOTDIR') return;
    throw fileSystemError('look at', directory, cause);
  }
  if (real === path.join(realState, path.relative(stateDirectory, directory))) return;
  throw new ZotboxError(
    'ZB_IO_FAILED',
    `${directory} leads to ${real} through a symbolic link; zotbox makes no links in its state directory and does not follow one. Fix: remove the link (rm ${JSON.stringify(directory)}), then run again.`,
    { details: { path: directory, target: real } },
  );
}
