// Whether sourcing a file may leave the sourcer's shell in another directory, and which of the file's functions may
// when called. A script's relative words (`bash lib.sh`) are read from where the shell is; a file it sources runs in
// its shell, so a `cd scripts` there makes `lib.sh` scripts/lib.sh (reviews s07d, s09f). The script readers follow
// the cds a script spells itself; what a sourced file does to the place is told here, from its text, taken apart by
// the shell's grammar (shell-command-positions.ts): a cd, pushd or popd run in the sourcer's shell (not in a function
// body, a subshell or a command substitution), PWD set, or a call of one of its functions that may. Where moving
// functions are defined, a command word zotbox does not spell out (`"$fn"`) may call one. Whether it turns
// `cdable_vars` on or sets git's place variables is told apart: those make the sourcer's `cd NAME` and rev-parse
// unknown. Text read as commands (eval's, trap's) is not read for a move or a call here, as it is not in the script
// itself. Pure. Where the text cannot be taken apart (a quote, a parenthesis, a body or a here-document never
// closed), the whole file counts as moving.
import { commandPositions, type Level } from './shell-command-positions.js';

export interface PlaceChanges {
  /** Sourcing the file may leave the shell elsewhere. */
  readonly movesWhenSourced: boolean;
  /** Its functions whose call may leave the shell elsewhere. */
  readonly movingFunctions: ReadonlySet<string>;
  /** Its top level or a function of its own calls one of the inherited moving functions. */
  readonly callsInherited: boolean;
  /** It may make `cd NAME` or `$(git rev-parse --show-toplevel)` name another place (REPLACES_PLACES). */
  readonly replacesPlaces: boolean;
}

/** The commands that move the shell they run in. */
const MOVERS = new Set(['cd', 'pushd', 'popd']);
/** PWD given a value in any spelling other than reading it (`$PWD`, `${PWD}`, `${PWD%/*}`...). */
const SETS_PWD = /(?<![$\w{#!])PWD(?!\w)|\$\{PWD:?=/u;
/**
 * What makes a later place other than the one spelled: `cdable_vars` (`cd NAME` goes to `$NAME` where no folder NAME
 * is), git's place variables (`$(git rev-parse --show-toplevel)` is then their worktree), a `git` the hash table holds.
 */
const REPLACES_PLACES = /\bcdable_vars\b|\bGIT_(?:DIR|WORK_TREE|COMMON_DIR)\b|\bhash\b[^\n;]*\bgit\b/u;

/** Whether `text` may give PWD a value, in any spelling (`PWD=`, `read PWD`, `export PWD`, `${PWD:=…}`). */
export function setsPwd(text: string): boolean {
  return SETS_PWD.test(text.replace(/["'\\]/gu, ''));
}

/** Whether `text` may make a later place other than the one spelled (REPLACES_PLACES). */
export function replacesPlaces(text: string): boolean {
  return REPLACES_PLACES.test(text.replace(/["'\\]/gu, ''));
}

/**
 * Whether one level moves the shell itself (`own`), or may call one of `moving`: names it (as a command, or handed on
 * as a word: `run up`, `fn=up`), or, at a top level (`top`), runs a command word zotbox does not spell out (`"$fn"`,
 * `$NOTHING up`). A body's own such word (nvm's `"$@"`) runs what its caller hands it, which the caller names.
 */
function moves(level: Level, moving: ReadonlySet<string>, own: boolean, top: boolean): boolean {
  if (own && (level.commands.some((command) => MOVERS.has(command)) || setsPwd(level.text))) return true;
  if (moving.size === 0) return false;
  if (level.words.some((word) => moving.has(word))) return true;
  return top && level.commands.some((command) => command === '' || /[$`]/u.test(command));
}

/**
 * What sourcing `text` does to the sourcer's place (the module comment). `inherited`: the moving functions of the files
 * it sources or that were sourced before it, which it may call. `hereCds`: how many cds the script reader met, each
 * to where the script runs (`cd "$(git rev-parse --show-toplevel)"` in a hook at the top); where the grammar finds no
 * more, its cds move nothing (PWD set and calls still may).
 */
export function placeChangesOf(text: string, inherited: ReadonlySet<string> = new Set(), hereCds?: number): PlaceChanges {
  const positions = commandPositions(text);
  if (positions === undefined) return { movesWhenSourced: true, movingFunctions: new Set(inherited), callsInherited: inherited.size > 0, replacesPlaces: true };
  const movers = [positions.top, ...positions.bodies.values()].reduce((count, level) => count + level.commands.filter((command) => MOVERS.has(command)).length, 0);
  const ownMoves = hereCds === undefined || movers > hereCds;
  const own = (level: Level) => ownMoves || setsPwd(level.text);
  // A function moves where its body does, or calls one that does: grown until nothing changes.
  const moving = new Set<string>(inherited);
  for (let grown = true; grown; ) {
    grown = false;
    for (const [name, body] of positions.bodies)
      if (!moving.has(name) && moves(body, moving, own(body), false)) {
        moving.add(name);
        grown = true;
      }
  }
  const callsInherited = inherited.size > 0 && [positions.top, ...positions.bodies.values()].some((level) => moves(level, inherited, false, level === positions.top));
  return { movesWhenSourced: moves(positions.top, moving, own(positions.top), true), movingFunctions: moving, callsInherited, replacesPlaces: replacesPlaces(text) };
}
