// Whether a checked command changes the filesystem's names (creates, moves,
// links or removes entries) or only writes the contents of files it names. A
// pipeline's commands run at the same time and are decided as one group before
// any starts, so a command that changes names could make a path another one was
// approved for lead elsewhere (issue 10 item 3): shell-decision.ts denies those
// in pipelines.
import { GIT_CREATES_REPOSITORY, GIT_WRITES_GITDIR, GIT_WRITES_PATHS_AFTER_DASHDASH, GIT_WRITES_PATHSPECS, GIT_WRITES_WORKTREE } from './git-effects.js';
import type { ParsedArguments } from './parse-arguments.js';
import type { ValueKind } from './rule-format.js';

/** The mark of rules whose writes only fill or truncate regular files they name (tee, touch), never create links or directories, move or remove. */
export const WRITES_CONTENTS_ONLY = 'writes-contents-only';

export type WriteEffect = 'none' | 'contents' | 'names';

/** The mark of rules that run code from files the agent can write: confined only (table.ts lists them). */
export const RUNS_PROJECT_CODE_MARK = 'runs-project-code';

const GIT_WRITES = [GIT_CREATES_REPOSITORY, GIT_WRITES_GITDIR, GIT_WRITES_PATHS_AFTER_DASHDASH, GIT_WRITES_PATHSPECS, GIT_WRITES_WORKTREE];

function kindWrites(kind: ValueKind, marks: ReadonlySet<string>): boolean {
  if (typeof kind === 'string') return kind === 'write' || kind === 'hardlink-source' || kind === 'symlink-target';
  if ('matches' in kind) return kind.path === 'write';
  if ('choices' in kind) return false;
  // As value-kinds.ts resolves it: the first mark set decides.
  if ('byMark' in kind) return kindWrites(kind.byMark.find(([mark]) => marks.has(mark))?.[1] ?? kind.otherwise, marks);
  return ('allOf' in kind ? kind.allOf : kind.anyOf).some((k) => kindWrites(k, marks));
}

export function writeEffectOf(parsed: ParsedArguments): WriteEffect {
  const writes = parsed.values.some((value) => kindWrites(value.kind, parsed.marks)) || GIT_WRITES.some((mark) => parsed.marks.has(mark));
  if (!writes) return 'none';
  return parsed.marks.has(WRITES_CONTENTS_ONLY) ? 'contents' : 'names';
}
