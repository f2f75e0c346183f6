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
// closed), the whole file counts as moving. A command word zotbox does not spell out (`$C`, `${CD:-cd}`) may be cd,
// and so may a `cd` among a command's operands (a command this reader does not know to run it): both move.
import { commandPositions, type Level, MOVERS } from './shell-command-positions.js';
import { expansionEnd } from './shell-lexer.js';

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

/** Where the sourcer's shell is already, as a cd operand spells it: `.`, `$PWD`, `$(pwd)`. */
const HERE = /^(?:\.\/?|"?\$(?:PWD|\{PWD\})"?|"?(?:\$\(\s*pwd\s*\)|`\s*pwd\s*`)"?)$/u;
/** The repository's top, as a cd operand spells it: where a sourcer at the top already is. */
const TOP = /^"?(?:\$\(\s*git\s+rev-parse\s+--show-toplevel\s*\)|`\s*git\s+rev-parse\s+--show-toplevel\s*`)"?$/u;
/** A command word that is only the caller's arguments (`"$@"`): what it runs, the caller names (and is read there). */
const ARGUMENTS_ONLY = /^"?\$(?:[@*1-9]|\{[@*1-9]\})"?$/u;
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
 * Where the sourcer's shell is when the file is sourced, where zotbox can tell: `atTop`, it runs at its repository's
 * top. Given only where the script reader found every cd it followed in the file to go there.
 */
export interface SourcerPlace {
  readonly atTop: boolean;
}

/**
 * Whether a level's own commands may move the shell: a cd, pushd or popd but a cd to where the sourcer already is
 * (`here`: HERE, or TOP where it runs at the top; never where the file makes pwd or git its own or sets what git's
 * top is); a command word zotbox does not spell out; a cd, pushd or popd among a command's operands; PWD set.
 */
function ownMoves(level: Level, here: SourcerPlace | undefined, ownNames: ReadonlySet<string>, text: string, top: boolean): boolean {
  const stays = ({ command, operand }: { readonly command: string; readonly operand: string }) =>
    here !== undefined && command === 'cd' && ((HERE.test(operand) && !ownNames.has('pwd')) || (here.atTop && TOP.test(operand) && !ownNames.has('git') && !replacesPlaces(text)));
  const named = level.words.filter((word) => MOVERS.has(word)).length;
  return (
    level.movers.some((mover) => !stays(mover)) || named > level.movers.length || (top && level.computed.some((command) => !ARGUMENTS_ONLY.test(command) && !namesPath(command))) || setsPwd(level.text)
  );
}

/** Whether a command word as written holds a `/` outside its expansions: bash runs it as a file, never as cd. */
function namesPath(written: string): boolean {
  let outside = '';
  for (let i = 0; i < written.length; i++) {
    const end = written[i] === '$' || written[i] === '`' ? expansionEnd(written, i) : i + 1;
    if (end > i + 1) i = end - 1;
    else outside += written[i] ?? '';
  }
  return outside.includes('/');
}

/**
 * Whether one level moves the shell itself (`own`), or may call one of `moving`: names it (as a command, or handed on
 * as a word: `run up`, `fn=up`), or, at a top level (`top`), runs a command word zotbox does not spell out (`"$fn"`,
 * `$NOTHING up`). A body's own such word (nvm's `"$@"`) runs what its caller hands it, which the caller names.
 */
function moves(level: Level, moving: ReadonlySet<string>, own: boolean, top: boolean): boolean {
  if (own) return true;
  if (moving.size === 0) return false;
  if (level.words.some((word) => moving.has(word))) return true;
  return top && level.commands.some((command) => command === '' || /[$`]/u.test(command));
}

/**
 * What sourcing `text` does to the sourcer's place (the module comment). `inherited`: the moving functions of the files
 * it sources or that were sourced before it, which it may call. `here`: where the sourcer is, given where the script
 * reader found every cd in the file to go there (`cd "$(git rev-parse --show-toplevel)"` in a hook at the top); each cd
 * the grammar finds is then judged by its own operand. Without it every cd moves.
 */
export function placeChangesOf(text: string, inherited: ReadonlySet<string> = new Set(), here?: SourcerPlace): PlaceChanges {
  const positions = commandPositions(text);
  if (positions === undefined) return { movesWhenSourced: true, movingFunctions: new Set(inherited), callsInherited: inherited.size > 0, replacesPlaces: true };
  const ownNames = new Set(positions.bodies.keys());
  const own = (level: Level) => ownMoves(level, here, ownNames, text, level === positions.top);
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
