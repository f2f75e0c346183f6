// What a pending operation of the user's (a stopped `git rebase -i`, cherry-pick or revert) runs when they continue:
// every `exec` line of its todo list, which git hands to a shell at the top of the worktree. The todo is git state
// (the git aftercare holds it to its grammar), but the files its lines run are worktree files: read as a hook script
// is (shell-command-words.ts scriptWords), they and the shell scripts they run in turn are control locations, so the
// agent can neither write them nor leave them changed for `git rebase --continue` to run unconfined. What the grammar
// cannot spell out is unresolved (refuses every writer). Reads files, runs nothing.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import { OVERSIZED, readSmallFile } from './git-inventory.js';
import { PENDING_TODO_FILES, todoExecCommands } from './git-sequencer-state.js';
import { isPlainFolder, realFolder } from './plain-folders.js';
import { invocationOf, type ScriptInvocation, scriptShell } from './script-invocation.js';
import { scriptWords, shebangProgramOf } from './shell-command-words.js';
import { isNodePreloadName, unreadPreload } from './node-preload-packages.js';

/** Shell scripts followed from one git directory's todo lists at most (a chain longer than this is unresolved). */
const MAX_SCRIPTS = 64;

/** A git directory and the worktree tops its commands run in (several when zotbox cannot tell which). */
export interface PendingRepository {
  readonly gitDirectory: string;
  readonly tops: readonly string[];
}

/** How a word a todo names is turned into absolute paths (control-locations.ts: home, PATH entries, the tops). */
export type Anchors = (word: { readonly text: string; readonly anchor: 'plain' | 'home' | 'top' }, tops: readonly string[]) => string[];

export interface PendingRun {
  readonly path: string;
  readonly tree: boolean;
  readonly reason: string;
}

/** The git directories a repository's pending operations live in: its own, and each linked worktree's (worktrees/NAME). */
export function pendingGitDirectories(gitDirectory: string): string[] {
  try {
    return [gitDirectory, ...readdirSync(path.join(gitDirectory, 'worktrees')).map((name) => path.join(gitDirectory, 'worktrees', name))];
  } catch {
    return [gitDirectory]; // no linked worktrees (an unreadable worktrees/ is the inventory's to report)
  }
}

/** A shell script's text, or undefined for what is no shell script (compiled, another interpreter's, unreadable): protected, not read. */
function shellScript(file: string): string | undefined {
  const text = readSmallFile(file);
  if (text === undefined || text === OVERSIZED || text.includes('\u0000')) return undefined;
  const program = shebangProgramOf(text);
  return program === undefined || /^(sh|bash|dash|zsh|ksh|mksh|ash)$/u.test(program) ? text : undefined;
}

/**
 * The control locations the todo lists of `repository` name, and what cannot be spelled out (`unresolved`, naming the
 * line). `inScopes` keeps reading to the write scopes: a script outside them is the user's and not followed.
 */
export function pendingRuns(
  repository: PendingRepository,
  environment: Readonly<Record<string, string | undefined>>,
  anchors: Anchors,
  inScopes: (p: string) => boolean,
  unresolved: string[],
): PendingRun[] {
  const found: PendingRun[] = [];
  // A script's file as the line names it (its $0: a linked script's link), and how its shell starts (script-invocation.ts).
  const queue: { text: string; file?: string; realFile?: string; invocation?: ScriptInvocation; where: string }[] = [];
  for (const todo of PENDING_TODO_FILES) {
    const file = path.join(repository.gitDirectory, todo);
    const text = readSmallFile(file);
    if (text === OVERSIZED) unresolved.push(`${file} (a pending operation's todo list) is larger than zotbox reads`);
    if (text === undefined || text === OVERSIZED) continue;
    for (const exec of todoExecCommands(text)) queue.push({ text: exec.command, where: `the exec line ${exec.line} of ${file} (${JSON.stringify(exec.command.slice(0, 80))})` });
  }
  const read = new Set<string>();
  while (queue.length > 0) {
    const { text, file, realFile, invocation, where } = queue.shift()!;
    // An exec line runs through `sh -c`, whose $0 git sets to the line itself: a spelling of it is unresolved.
    const shell = file === undefined ? {} : scriptShell(text, file, realFile ?? file, invocation ?? {});
    if ('handsOnFunctions' in shell) unresolved.push(`${where}: it may hand the functions of the script that sources it to a new bash, where their $0 is not that script's`);
    for (const top of repository.tops) {
      const words = scriptWords(text, { ...shell, workingDirectory: top, environment, isPlainFolder, realFolder });
      for (const word of words) {
        if (word.kind === 'unresolved') {
          unresolved.push(`${where} names ${JSON.stringify(word.text.slice(0, 80))}, and ${word.why.replace('when git runs it', 'when the user continues')}`);
          continue;
        }
        if (isNodePreloadName(word.text)) {
          unresolved.push(`${where}: ${unreadPreload(word.text)}`);
          continue;
        }
        for (const target of anchors(word, [top])) {
          found.push({ path: target, tree: word.tree, reason: `run by ${where}; the user's git runs it when they continue the pending operation` });
          if (word.runs !== true || !inScopes(target)) continue;
          const real = resolveCanonicalPath(target);
          const script = real.ok && real.exists ? real.path : undefined;
          const onward = invocationOf(word, shell);
          const key = `${JSON.stringify(onward ?? null)}:${target}`;
          if (script === undefined || read.has(key)) continue;
          read.add(key);
          if (read.size > MAX_SCRIPTS) {
            unresolved.push(`${where}: the scripts it runs run more scripts than zotbox reads`);
            return found;
          }
          const body = shellScript(script);
          if (body !== undefined) queue.push({ text: body, file: target, realFile: script, ...(onward === undefined ? {} : { invocation: onward }), where: `${script}, which ${where} runs` });
        }
      }
    }
  }
  return found;
}
