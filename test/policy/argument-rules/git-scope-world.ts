// Scopes the gate world (test/fixtures/gate-world.ts) does not have, for git's
// effects: .git writable but only one worktree file, two files but not .git, a
// read scope over one subdirectory; and repositories git must not be let into
// (a gitfile, a .git link, an empty .git, a bare-shaped directory, a config
// moving the worktree), all in W.
import type { ExecutionContext } from 'ava';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ErrorCode } from '../../../src/errors.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../../src/policy/shell-decision.js';
import { gateWorld } from '../../fixtures/gate-world.js';

export type GitScopeName =
  | 'default' // W read and write
  | 'changelog-only' // the only write scope is W/CHANGELOG.md
  | 'git-and-changelog' // writes: W/.git and W/CHANGELOG.md
  | 'two-files' // writes: W/CHANGELOG.md and W/notes.md, not .git
  | 'src-only'; // reads and writes: W/src only

export interface GitScopeCase {
  /** The command, with $W, $R, $S for the world's directories. */
  readonly command: string;
  readonly expect: 'allow' | ErrorCode;
  readonly world?: GitScopeName;
  readonly why?: string;
}

/** A directory holding a .git shaped like a git directory, with this config. */
function addRepository(directory: string, config: string): void {
  for (const dir of ['.git/objects', '.git/refs']) mkdirSync(path.join(directory, dir), { recursive: true });
  writeFileSync(path.join(directory, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(path.join(directory, '.git', 'config'), config);
}

function addRepositoriesGitRefuses(W: string, S: string): void {
  mkdirSync(path.join(W, 'linked'));
  writeFileSync(path.join(W, 'linked', '.git'), 'gitdir: ../.git\n');
  mkdirSync(path.join(W, 'symlinked'));
  symlinkSync('../.git', path.join(W, 'symlinked', '.git'));
  for (const dir of ['bare-shaped/objects', 'bare-shaped/refs']) mkdirSync(path.join(W, dir), { recursive: true });
  writeFileSync(path.join(W, 'bare-shaped', 'HEAD'), 'ref: refs/heads/main\n');
  mkdirSync(path.join(W, 'empty-dotgit', '.git'), { recursive: true });
  addRepository(path.join(W, 'moved'), `[core]\n\tbare = false\n\tworktree = ${S}\n`);
  addRepository(path.join(W, 'moved-tree'), '[core]\n\tbare = false\n');
  writeFileSync(path.join(W, 'moved-tree', '.git', 'config.worktree'), `[CORE] WorkTree = ${S}\n`);
  addRepository(path.join(W, 'including'), '[includeIf "gitdir:~/"]\n\tpath = elsewhere.cfg\n');
  addRepository(path.join(W, 'plain'), '[core]\n\tbare = false\n[extensions]\n\tworktreeConfig = true\n');
}

export interface GitScopeWorld {
  readonly expand: (command: string) => string;
  readonly contexts: Readonly<Record<GitScopeName, ShellContext>>;
}

/** The gate world with the repositories above added to W and a context for each scope name. */
export function gitScopeWorld(t: ExecutionContext): GitScopeWorld {
  const world = gateWorld(t);
  const { W, R, S } = world;
  addRepositoriesGitRefuses(W, S);
  const scopeContext = world.context.scopes.context;
  const withScopes = (read: string[], write: string[]): ShellContext => ({ ...world.context, scopes: compileScopes({ read, write }, scopeContext) });
  const contexts: Record<GitScopeName, ShellContext> = {
    default: world.context,
    'changelog-only': world.changelogOnly,
    'git-and-changelog': withScopes([W, R], [path.join(W, '.git'), path.join(W, 'CHANGELOG.md')]),
    'two-files': withScopes([W, R], [path.join(W, 'CHANGELOG.md'), path.join(W, 'notes.md')]),
    'src-only': withScopes([path.join(W, 'src')], [path.join(W, 'src')]),
  };
  return { expand: world.expand, contexts };
}

/** 'allow' or the denial's code, with its reason. */
export function decideGitScopeCase(world: GitScopeWorld, c: GitScopeCase): { actual: 'allow' | ErrorCode; reason: string } {
  const decision = decideShellCommand(world.expand(c.command), world.contexts[c.world ?? 'default']);
  return decision.allow ? { actual: 'allow', reason: '' } : { actual: decision.code, reason: decision.reason };
}

/** Decides every case and fails once, listing each mismatch. */
export function checkGitScopeCases(t: ExecutionContext, cases: readonly GitScopeCase[]): void {
  const world = gitScopeWorld(t);
  const mismatches: string[] = [];
  for (const c of cases) {
    const { actual, reason } = decideGitScopeCase(world, c);
    if (actual !== c.expect) mismatches.push(`${c.command} [${c.world ?? 'default'}]: expected ${c.expect}, got ${actual}${reason === '' ? '' : ` (${reason})`}`);
  }
  t.log(`${cases.length} cases, ${cases.length - mismatches.length} as expected`);
  t.deepEqual(mismatches, []);
}
