// Keeps what the user's own tools run out of a command's reach (issue 21 §3, §5):
// the control locations git configuration names (control-locations.ts) and the
// tool files no write scope names (policy/protected-files.ts). Before a call they
// are listed and their contents recorded; inside the sandbox the existing ones
// are bound read-only; after the call each is compared with the record, and
// whatever was created, changed, replaced or removed is put back as it was (also
// unconfined, where nothing was read-only), and the run stops. Past the byte budget a
// file is recorded by identity: changed, it is removed instead (file-identity.ts).
import { chmodSync, closeSync, constants, fstatSync, type BigIntStats, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../errors.js';
import { resolveCanonicalPath } from '../../../policy/path-resolve.js';
import { findControlLocation, isImportableName, moduleEntryName, ungrantedToolFile, type ControlLocation, type ControlLocations } from '../../../policy/protected-files.js';
import { isInsideRoot } from '../../../policy/scopes.js';
import { linkTargetOf, linkTextOf } from './git-pointer-text.js';
import { fileIdentity, sameIdentity, settledAfter, waitPast, wallClockNs, type FileIdentity } from './file-identity.js';
import { collectControlLocations, type UserGitEnvironment } from './control-locations.js';
import { scanGitMetadata, type GitInventory } from './git-inventory.js';
import { linkTargets } from './link-targets.js';
import { LinkPlacement } from './links-on-the-way.js';
import { outermostPaths } from './outermost-paths.js';
import { onExistingPaths } from './paths-below-files.js';
import { toolFileReferences } from './tool-file-references.js';

/**
 * Entries recorded per call at most: past it zotbox refuses (link-targets.ts walks the same trees within the same bound,
 * so a higher one here would be refused there). Bytes kept per call at most: past them files are recorded by identity
 * (file-identity.ts): one changed cannot be put back and is removed instead, which leaves nothing of the agent's either.
 */
const MAX_ENTRIES = 20_000;
const MAX_BYTES = 64 * 1024 * 1024;
/**
 * Of those, bytes kept for files found inside protected directories (not named themselves): a cache's zips are the
 * bulk of it, and reading them before and after every call costs far more than their identity; small files there (a
 * .vscode/ settings file, a hook in .husky/) still fit and are put back byte for byte.
 */
const MAX_FOUND_BYTES = 4 * 1024 * 1024;
/** The longest zotbox waits for recent ctimes to settle (file-identity.ts: 3 s on a filesystem of whole seconds). */
const MAX_SETTLE_NS = 4_000_000_000n;

export interface ProtectedSet {
  /** For the gate: every control location (git directories' own entries included). */
  readonly locations: readonly ControlLocation[];
  /** What commands must not change, outermost first, none inside another: control locations outside git directories, ungranted tool files. */
  readonly paths: readonly string[];
  /** Why each path is protected (for the error). */
  readonly reasons: ReadonlyMap<string, string>;
  /** What zotbox could not work out about what the user's git runs (a shell expansion, an unreadable config): non-empty refuses. */
  readonly unresolved: readonly string[];
  /** Lines of tool files zotbox does not read (tool-file-references.ts): non-empty refuses too. */
  readonly toolUnresolved?: readonly string[];
  /** Links in protected places zotbox cannot follow (link-targets.ts): non-empty refuses too. */
  readonly linkUnresolved?: readonly string[];
}

/** The protected set for the scopes as the inventory found them. */
export function protectedSetOf(inventory: GitInventory, writeRoots: readonly string[], user: UserGitEnvironment | undefined): ProtectedSet {
  const git = collectControlLocations(inventory, writeRoots, user ?? { home: '/nonexistent', noSystem: true });
  // What the tool files name is protected as they are (tool-file-references.ts).
  const named = toolFileReferences(inventory.toolEntries, writeRoots, { hookDirectories: git.hookDirectories, ...(user?.environment === undefined ? {} : { environment: user.environment }) });
  const unresolved = git.unresolved;
  // A path below a file is protected as that file (paths-below-files.ts): nothing after this lstat's through a file.
  const gitLocations = git.locations.flatMap(onExistingPaths);
  const namedLocations = named.locations.flatMap(onExistingPaths);
  const reasons = new Map<string, string>();
  const inGitDirectory = (p: string) => [...inventory.gitDirectories.keys()].some((directory) => isInsideRoot(p, directory));
  const entries = toolEntryReasons(inventory.toolEntries, writeRoots);
  // A directory's module entries (a sys.path[0]) are the entries it holds now of those names: listed afresh after each
  // command, so one it created is found then, absent from the record, and removed.
  const moduleEntries = [...gitLocations, ...namedLocations].flatMap((location) => moduleEntryPaths(location).map((p) => ({ path: p, reason: location.reason })));
  // What the links in protected places lead to runs as they do (link-targets.ts). A git directory is walked by its
  // control entries (listed on their own), never its object store.
  const linked = linkTargets(
    [
      ...[...gitLocations, ...namedLocations].filter((location) => location.modules === undefined && location.asLink !== true).map((location) => ({ path: location.path, reason: location.reason })),
      ...moduleEntries,
      ...[...entries].map(([entry, reason]) => ({ path: entry, reason })),
      ...(named.enclosing ?? []).map((entry) => ({ path: entry, reason: 'a file other tools run on their own, above the write scopes' })),
      ...git.hookDirectories.map(({ directory }) => ({ path: directory, reason: "a hooks directory; the user's git runs what it holds" })),
    ],
    writeRoots,
    (p) => inventory.gitDirectories.has(p) || (path.basename(p).toLowerCase() === 'objects' && inGitDirectory(p)),
  );
  const written = [...gitLocations, ...namedLocations, ...linked.locations];
  // A path reached through a linked directory (a workspace package's bin) is recorded where it lies: the links on the
  // way as links, and where they lead (links-on-the-way.ts). The gate is given both; the path as written never matches.
  const placement = new LinkPlacement(writeRoots);
  const placed = (location: ControlLocation) => placement.locations(location);
  const locations = [...written, ...written.flatMap((location) => (placement.place(location.path) === undefined ? [] : placed(location)))];
  // Git directories (and the gitfiles and links in them) are the git aftercare's: bound read-only and checked there.
  for (const location of [...written.filter((location) => location.modules === undefined), ...moduleEntries.map((entry) => ({ ...entry, tree: true }))].flatMap(placed)) {
    // A directory that a key names as a whole (a remote, a worktree) is not run; its files are not protected.
    const isDirectory = !location.tree && lstatSync(location.path, { throwIfNoEntry: false })?.isDirectory() === true;
    if (!isDirectory && !inGitDirectory(location.path) && !reasons.has(location.path)) reasons.set(location.path, location.reason);
  }
  for (const [entry, reason] of entries) for (const location of placed({ path: entry, tree: false, reason })) if (!reasons.has(location.path)) reasons.set(location.path, location.reason);
  const paths = outermostPaths(reasons.keys());
  return { locations, paths, reasons, unresolved, toolUnresolved: named.unresolved, linkUnresolved: linked.unresolved };
}

/**
 * The paths a location of module entries stands for now: each entry of its directory of a protected name (NAME.py; the
 * package directory NAME/ whole where it is one, else its NAME/__init__.py, there or not); none for any other location.
 */
function moduleEntryPaths(location: ControlLocation): string[] {
  const modules = location.modules;
  if (modules === undefined) return [];
  let names: string[];
  try {
    names = readdirSync(location.path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []; // not there yet: made by a command, listed after it
    throw error;
  }
  const paths: string[] = [];
  for (const name of names) {
    const stem = moduleEntryName(name);
    const entry = path.join(location.path, name);
    const isPackageDirectory = stem === name.toLowerCase() && lstatSync(entry).isDirectory();
    // Any importable name's module file or package __init__.py (protected-files.ts isModuleEntry), and a named one whole.
    if (isPackageDirectory && isImportableName(stem)) paths.push(modules.names.has(stem) && modules.packages.has(stem) ? entry : path.join(entry, '__init__.py'));
    else if (modules.names.has(stem) || (name.toLowerCase().endsWith('.py') && isImportableName(stem))) paths.push(entry);
  }
  return paths;
}

/** The ungranted tool files among the entries (as written and as they resolve), each with why it is protected. */
function toolEntryReasons(toolEntries: readonly string[], writeRoots: readonly string[]): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const entry of toolEntries) {
    for (const candidate of canonicalAndWritten(entry)) {
      const match = ungrantedToolFile(candidate, writeRoots);
      if (match !== undefined && writeRoots.some((root) => isInsideRoot(match.entry, root)) && !reasons.has(match.entry))
        reasons.set(match.entry, `a file other tools run on their own: ${match.rule.runBy}`);
    }
  }
  return reasons;
}

/**
 * Where the set after a call cannot be worked out (protectedSetOf threw: a path zotbox cannot look at, made by the
 * command), the set the inventory before the call gives now stands in (`fromBefore`: its directories' module entries
 * listed afresh, so a new `gettext.py` beside a script a hook runs is found), else the record's; and every ungranted
 * tool file the scan finds now is added to it. What the call made there is then absent from the record, so
 * restoreProtected removes it. Never only the record's: that would keep every new `.envrc`.
 */
export function fallbackProtectedSet(recorded: ProtectedSet, inventory: GitInventory, writeRoots: readonly string[], fromBefore: () => ProtectedSet): ProtectedSet {
  let base = recorded;
  try {
    base = fromBefore();
  } catch {
    // the record's set, as it stands
  }
  const paths = [...recorded.paths, ...base.paths.filter((p) => !recorded.paths.includes(p))];
  const reasons = new Map([...base.reasons, ...recorded.reasons]);
  for (const [entry, reason] of toolEntryReasons(inventory.toolEntries, writeRoots)) {
    if (paths.some((held) => isInsideRoot(entry, held))) continue;
    paths.push(entry);
    reasons.set(entry, reason);
  }
  return { ...base, paths, reasons };
}

/** A link in a protected place zotbox cannot follow: why, naming each, and how to fix it. */
export function unresolvedLinksMessage(unresolved: readonly string[]): string {
  return `zotbox cannot tell what the links the user's tools run through lead to: ${unresolved.join('; ')}. The tool runs what such a link leads to, so a file the agent writes could be it. Fix: point the link at a file that exists and that zotbox can read, or remove it`;
}

/** What a tool file names cannot be worked out: why, naming each line, and how to fix it. */
export function unresolvedToolFilesMessage(unresolved: readonly string[]): string {
  return `zotbox cannot tell which files the user's tools would run: ${unresolved.join('; ')}. The tool runs what such a line names, so a file the agent writes could be it. Fix: write that line with the directives zotbox reads (source_env FILE, dotenv, PATH_add DIR, use nix, NAME=VALUE...), or move it into a file outside the write scopes`;
}

/** What the user's git would run cannot be worked out: why, naming each config line, and how to fix it. */
export function unresolvedControlsMessage(unresolved: readonly string[]): string {
  return `zotbox cannot tell which files the user's git would run: ${unresolved.join('; ')}. Git runs such a value through a shell from the top of the repository, so a file the agent writes could be what it names. Fix: write the program's path out in that config line (an absolute path, or one relative to the top of the repository, "~/..." or "$HOME/..."), or call a script outside the write scopes that does the rest`;
}

/** Before any writer acts: refuses when what the user's git runs cannot be worked out (fail closed). */
export function refuseUnresolvedControls(set: ProtectedSet): void {
  const tools = set.toolUnresolved ?? [];
  if (tools.length > 0) throw new ZotboxError('ZB_CONFINEMENT_TOOL_FILE_UNRESOLVED', `command refused: ${unresolvedToolFilesMessage(tools)}.`, { details: { unresolved: [...tools] } });
  if (set.unresolved.length === 0) return;
  throw new ZotboxError('ZB_CONFINEMENT_GIT_CONFIG_UNRESOLVED', `command refused: ${unresolvedControlsMessage(set.unresolved)}.`, { details: { unresolved: [...set.unresolved] } });
}

/** Before any writer acts: refuses when a link in a protected place cannot be followed (fail closed). */
export function refuseUnresolvedLinks(set: ProtectedSet): void {
  const links = set.linkUnresolved ?? [];
  if (links.length > 0) throw new ZotboxError('ZB_CONFINEMENT_LINK_UNRESOLVED', `command refused: ${unresolvedLinksMessage(links)}.`, { details: { unresolved: [...links] } });
}

function canonicalAndWritten(entry: string): string[] {
  const resolved = resolveCanonicalPath(entry);
  return resolved.ok && resolved.path !== entry ? [entry, resolved.path] : [entry];
}

/** For the gate and the write executor: the control locations now, or why they cannot be known (fail closed). */
export function currentControlLocations(writeRoots: readonly string[], skipped: readonly string[], user: UserGitEnvironment | undefined): ControlLocations {
  try {
    const inventory = scanGitMetadata(writeRoots, skipped, true, user?.home);
    if (inventory.unreadable.length > 0) return { unavailable: `${inventory.unreadable[0]!} cannot be listed` };
    const set = protectedSetOf(inventory, writeRoots, user);
    if (set.unresolved.length > 0) return { unavailable: unresolvedControlsMessage(set.unresolved) };
    if ((set.toolUnresolved ?? []).length > 0) return { unavailable: unresolvedToolFilesMessage(set.toolUnresolved!) };
    if ((set.linkUnresolved ?? []).length > 0) return { unavailable: unresolvedLinksMessage(set.linkUnresolved!) };
    return { locations: set.locations };
  } catch (error) {
    return { unavailable: (error as Error).message };
  }
}

/** At the effect of a write or edit: the same rules as the gate, on the filesystem as it is now. */
export function refuseProtectedWrite(canonical: string, writeRoots: readonly string[], controls: ControlLocations): void {
  const refuse = (why: string) => new ZotboxError('ZB_POLICY_PATH_PROTECTED', `write denied: ${canonical} ${why}. Nothing was written.`, { details: { path: canonical } });
  if ('unavailable' in controls) throw refuse(`may be a file the user's git runs, and zotbox could not tell (${controls.unavailable})`);
  const location = findControlLocation(canonical, controls.locations);
  if (location !== undefined) throw refuse(`is ${location.reason}`);
  const tool = ungrantedToolFile(canonical, writeRoots);
  if (tool !== undefined) throw refuse(`is inside ${tool.entry}, which ${tool.rule.runBy}; declare it in permissions.fs.write to grant it`);
}

/** Write roots strictly inside `p`: what a scope names explicitly stays the agent's, also inside a protected directory. */
function grantedInside(p: string, writeRoots: readonly string[]): string[] {
  return writeRoots.filter((root) => root !== p && isInsideRoot(root, p));
}

/**
 * What to bind read-only in the sandbox: each existing protected path that is
 * canonical (a link cannot be mounted over; what it points to is listed on its
 * own), or, where a write scope lies inside it, its other entries.
 */
export function readOnlyBinds(set: ProtectedSet, writeRoots: readonly string[]): string[] {
  const binds: string[] = [];
  const visit = (p: string) => {
    if (writeRoots.includes(p)) return; // named by a scope: the agent's
    const stats = lstatSync(p, { throwIfNoEntry: false });
    if (stats === undefined || stats.isSymbolicLink()) return;
    const resolved = resolveCanonicalPath(p);
    if (!resolved.ok || resolved.path !== p) return;
    const granted = grantedInside(p, writeRoots);
    if (granted.length === 0) binds.push(p);
    else if (stats.isDirectory()) for (const name of readdirSync(p)) visit(path.join(p, name));
  };
  for (const p of set.paths) visit(p);
  return binds;
}

type Recorded =
  | { readonly kind: 'missing' }
  | { readonly kind: 'granted' }
  | { readonly kind: 'file'; readonly mode: number; readonly data: Buffer }
  | { readonly kind: 'identity'; readonly identity: FileIdentity }
  | { readonly kind: 'link'; readonly target: string }
  | { readonly kind: 'directory'; readonly mode: number; readonly children: ReadonlyMap<string, Recorded> }
  | { readonly kind: 'other'; readonly ino: number };

export interface ProtectedRecord {
  readonly set: ProtectedSet;
  readonly entries: ReadonlyMap<string, Recorded>;
}

/** Options for tests: the wall clock (ns since the epoch) that decides whether a file changed too recently to trust its ctime. */
export interface RecordOptions {
  readonly clock?: () => bigint;
}

function tooLarge(p: string): ZotboxError {
  return new ZotboxError(
    'ZB_CONFINEMENT_BIND_UNSAFE',
    `command refused: the protected files around ${p} hold more than ${MAX_ENTRIES} entries, too many for zotbox to record and check after each command. Move them out of the write scopes, or declare a narrower write scope.`,
    { details: { path: p } },
  );
}

/** A protected file found by the walk, recorded by identity until it is given bytes. */
interface FoundFile {
  readonly path: string;
  readonly stats: BigIntStats;
  /** Named as a protected path itself (a hook, .envrc, .pnp.cjs), not found inside a protected directory. */
  readonly named: boolean;
  readonly place: Map<string, Recorded>;
  readonly key: string;
}

/**
 * Records every protected path before a call (every writer: commands, confined or not, and the file tools). Files are
 * kept byte for byte while MAX_BYTES lasts, the files named as protected paths first and then smallest first (a hook,
 * an .envrc, a package.json fit before any cache zip); the rest by identity (file-identity.ts), never read. A protected
 * file zotbox cannot read for its bytes refuses the call: it could not be put back; so does a set with unresolved
 * config values, or more than MAX_ENTRIES entries.
 */
export function recordProtected(set: ProtectedSet, writeRoots: readonly string[], options: RecordOptions = {}): ProtectedRecord {
  refuseUnresolvedControls(set); // what cannot be listed cannot be recorded, bound or put back: no command runs
  refuseUnresolvedLinks(set);
  const budget = { entries: 0 };
  const files: FoundFile[] = [];
  const record = (p: string, place: Map<string, Recorded>, key: string, named: boolean): void => {
    if (writeRoots.includes(p)) return void place.set(key, { kind: 'granted' });
    if (++budget.entries > MAX_ENTRIES) throw tooLarge(p);
    const stats = lstatSync(p, { throwIfNoEntry: false, bigint: true });
    if (stats === undefined) return void place.set(key, { kind: 'missing' });
    if (stats.isSymbolicLink()) return void place.set(key, { kind: 'link', target: linkTextOf(p) });
    if (stats.isFile()) {
      files.push({ path: p, stats, named, place, key });
      return void place.set(key, { kind: 'identity', identity: fileIdentity(stats) });
    }
    if (!stats.isDirectory()) return void place.set(key, { kind: 'other', ino: Number(stats.ino) });
    const children = new Map<string, Recorded>();
    place.set(key, { kind: 'directory', mode: Number(stats.mode & 0o7777n), children });
    for (const name of readdirSync(p)) record(path.join(p, name), children, name, false);
  };
  const entries = new Map<string, Recorded>();
  for (const p of set.paths) record(p, entries, p, true);
  keepBytes(files);
  settleIdentities(entries, options.clock ?? wallClockNs);
  return { set, entries };
}

/** Gives bytes to the files that fit MAX_BYTES (found ones MAX_FOUND_BYTES): named ones first, then smallest first; the rest stay identities. */
function keepBytes(files: FoundFile[]): void {
  files.sort((a, b) => (a.named === b.named ? Number(a.stats.size - b.stats.size) : a.named ? -1 : 1));
  let bytes = 0;
  let found = 0;
  for (const file of files) {
    const size = Number(file.stats.size);
    if (bytes + size > MAX_BYTES || (!file.named && found + size > MAX_FOUND_BYTES)) continue;
    bytes += size;
    if (!file.named) found += size;
    file.place.set(file.key, { kind: 'file', mode: Number(file.stats.mode & 0o7777n), data: readRegularFile(file.path) });
  }
}

/** A file recorded by identity that changed moments ago could change again within its ctime's grain: waited past it. */
function settleIdentities(entries: ReadonlyMap<string, Recorded>, clock: () => bigint): void {
  const identities: { path: string; identity: FileIdentity }[] = [];
  const collect = (at: string, recorded: Recorded) => {
    if (recorded.kind === 'identity') identities.push({ path: at, identity: recorded.identity });
    if (recorded.kind === 'directory') for (const [name, child] of recorded.children) collect(path.join(at, name), child);
  };
  for (const [at, recorded] of entries) collect(at, recorded);
  const now = clock();
  const instant = settledAfter(
    identities.map((each) => each.identity),
    now,
  );
  if (instant === undefined) return;
  // A ctime ahead of the clock by more than any grain (a skewed clock) cannot be waited out: refused, naming the file.
  if (instant - clock() > MAX_SETTLE_NS) {
    const ahead = identities.find((each) => settledAfter([each.identity], now) === instant)!.path;
    throw new ZotboxError(
      'ZB_CONFINEMENT_BIND_UNSAFE',
      `command refused: the protected file ${ahead}, too large to keep a copy of, has a change time ahead of the clock, so zotbox cannot tell a later change from it. Fix: check the system clock (or touch the file once the clock is right).`,
      { details: { path: ahead } },
    );
  }
  waitPast(instant, clock);
}

function readRegularFile(p: string): Buffer {
  const fd = openSync(p, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    if (!fstatSync(fd).isFile()) throw new Error(`${p} changed while it was read`);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** False when the file differs or cannot be read (then it is put back, which needs no reading). */
function sameContent(p: string, data: Buffer): boolean {
  try {
    return readRegularFile(p).equals(data);
  } catch {
    return false; // unreadable now: replaced by the recorded content, which is what "put back" means
  }
}

export interface ProtectedChange {
  readonly path: string;
  readonly reason: string;
}

/**
 * The first directory between the write root that holds `p` and `p` that is a link or anything but a directory
 * (missing ones are fine: they are made anew); undefined when `p` is reached through plain directories alone.
 * A path in no write root is never acted on.
 */
export function linkOnTheWay(p: string, writeRoots: readonly string[]): string | undefined {
  const root = writeRoots.filter((r) => isInsideRoot(p, r)).sort((a, b) => b.length - a.length)[0];
  if (root === undefined) return p;
  const steps = path
    .relative(root, path.dirname(p))
    .split(path.sep)
    .filter((part) => part !== '');
  let at = root;
  for (const step of ['', ...steps]) {
    at = step === '' ? at : path.join(at, step);
    const stats = lstatSync(at, { throwIfNoEntry: false });
    if (stats === undefined) return undefined;
    if (!stats.isDirectory()) return at;
  }
  return undefined;
}

/**
 * After a call: every recorded path, and every protected path the scopes hold
 * now, is put back as recorded (a path not recorded was absent). Returns what
 * had changed.
 */
export function restoreProtected(record: ProtectedRecord, now: ProtectedSet, writeRoots: readonly string[]): ProtectedChange[] {
  const changes: ProtectedChange[] = [];
  const reasonOf = (p: string) => record.set.reasons.get(p) ?? now.reasons.get(p) ?? 'protected';
  const put = (p: string, want: Recorded, why: string) => {
    if (want.kind === 'granted') return;
    const changed = (what: string) => changes.push({ path: p, reason: `${what}; ${why}` });
    // Never act through a link: one planted on the way would make zotbox remove or write outside the scopes.
    const detour = linkOnTheWay(p, writeRoots);
    if (detour !== undefined) return changed(`${detour} on the way to it is not a plain directory now (a link?); zotbox follows no link to put it back, so review it`);
    const stats = lstatSync(p, { throwIfNoEntry: false });
    if (want.kind === 'missing') {
      if (stats === undefined) return;
      // A name protected as a file that is now a directory nothing protects (a setting's `tests` or `docs/`, made by
      // the agent's first file there): the rule that reads it now (protectedSetOf: a non-tree name's directory is not
      // run) is the gate's, so it stays; only what is protected inside it now is put back.
      if (stats.isDirectory() && !now.paths.some((q) => isInsideRoot(p, q))) {
        for (const inner of now.paths) if (inner !== p && isInsideRoot(inner, p)) put(inner, want, reasonOf(inner));
        return;
      }
      if (grantedInside(p, writeRoots).length > 0 && stats.isDirectory()) {
        // A scope named inside it: only what lies outside that scope is removed.
        for (const name of readdirSync(p)) if (!writeRoots.includes(path.join(p, name))) put(path.join(p, name), want, why);
        return;
      }
      rmSync(p, { recursive: true, force: true });
      return changed('it was created');
    }
    if (want.kind === 'other') {
      if (stats !== undefined && !stats.isFile() && !stats.isDirectory() && !stats.isSymbolicLink() && stats.ino === want.ino) return;
      return changed('a special file was replaced or removed, and zotbox cannot make it anew; review it');
    }
    if (want.kind === 'link') {
      if (stats?.isSymbolicLink() === true && linkTextOf(p) === want.target) return;
      rmSync(p, { recursive: true, force: true });
      mkdirSync(path.dirname(p), { recursive: true });
      symlinkSync(linkTargetOf(want.target), p);
      return changed('a link was changed; it was put back');
    }
    if (want.kind === 'identity') {
      const current = stats?.isFile() === true ? lstatSync(p, { bigint: true }) : undefined;
      if (current !== undefined && sameIdentity(fileIdentity(current), want.identity)) return;
      const kept = 'zotbox kept no copy of it (past the byte budget it is recorded by identity), so restore it from its source (a cache zip: yarn install)';
      if (stats === undefined) return changed(`it was removed; ${kept}`);
      // Not put back, and not left: what the agent wrote there runs nowhere (yarn refetches a missing cache zip).
      rmSync(p, { recursive: true, force: true });
      return changed(`it was changed or replaced; it was removed, as ${kept}`);
    }
    if (want.kind === 'file') {
      if (stats?.isFile() === true && (stats.mode & 0o7777) === want.mode && sameContent(p, want.data)) return;
      rmSync(p, { recursive: true, force: true });
      mkdirSync(path.dirname(p), { recursive: true });
      writeFileSync(p, want.data, { flag: 'wx', mode: 0o600 });
      chmodSync(p, want.mode);
      return changed(stats === undefined ? 'it was removed; it was put back' : 'it was changed; its content was put back');
    }
    if (stats === undefined || !stats.isDirectory()) {
      rmSync(p, { recursive: true, force: true });
      mkdirSync(p, { recursive: true, mode: 0o700 });
      changed(stats === undefined ? 'it was removed; it was put back' : 'it was replaced; it was put back');
    }
    if ((lstatSync(p).mode & 0o7777) !== want.mode) {
      chmodSync(p, want.mode);
      if (stats?.isDirectory() === true) changed('its permissions were changed; they were put back');
    }
    for (const name of readdirSync(p)) {
      const child = path.join(p, name);
      if (!want.children.has(name) && !writeRoots.some((root) => isInsideRoot(root, child))) {
        rmSync(child, { recursive: true, force: true });
        changes.push({ path: child, reason: `it was created; ${why}` });
      }
    }
    for (const [name, child] of want.children) put(path.join(p, name), child, why);
  };
  for (const [p, want] of record.entries) put(p, want, reasonOf(p));
  // Protected paths that appeared during the call (a new .envrc at any depth): absent before, so removed.
  for (const p of now.paths) {
    if (record.entries.has(p) || [...record.entries.keys()].some((outer) => isInsideRoot(p, outer))) continue;
    put(p, { kind: 'missing' }, reasonOf(p));
  }
  return changes;
}

export function protectedFileError(changes: readonly ProtectedChange[]): ZotboxError {
  const list = changes.map((c) => `${c.path} (${c.reason})`).join('; ');
  return new ZotboxError(
    'ZB_CONFINEMENT_PROTECTED_FILE',
    `the command changed files that other tools run on their own: ${list}. zotbox put them back as they were (a file it kept no copy of, removed) and stopped the run. To let an agent change such a file, declare the file itself in permissions.fs.write (consent then shows it).`,
    { details: { paths: changes.map((c) => c.path) } },
  );
}
