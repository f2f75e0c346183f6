// Resource bounds for confined commands (issue 24 §5): how many processes, how much
// memory, CPU time and file size one command may use, beside the call's wall time and
// output caps. Processes and memory are bounded by a cgroup made for the command where
// this host can make one (cgroup v2 delegated to zotbox, or the v1 hierarchies when it
// may write them, as root), by rlimits otherwise; CPU time and file size are always
// rlimits. The rlimits are set inside the sandbox's user namespace: CPU time and
// file size by the start script's ulimit builtin, the fallback's processes and data
// by util-linux's prlimit (the start script execs it), so RLIMIT_NPROC counts that
// namespace's processes only. Options can lower a limit below its ceiling, never raise it.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError } from '../../../errors.js';
import { COMMAND_LIMIT_FIELDS, type CommandLimitKey } from '../../../policy/manifest-fields.js';
import { findProgram } from '../../../policy/program-lookup.js';
import { COMMAND_SEARCH_PATH } from '../command-environment.js';

/** One command's limits: processes, memory (MiB), CPU time per process (s), size of any one file it writes (MiB). */
export type CommandLimits = { readonly [key in CommandLimitKey]: number };

/**
 * What an ordinary build or test run fits in: 1,024 processes and 4 GiB of memory per command; an hour of CPU time per
 * process (a call runs at most an hour of wall time, and a compiler's threads add up); 4 GiB per file written.
 */
export const DEFAULT_COMMAND_LIMITS: CommandLimits = { processes: 1024, memory_mib: 4096, cpu_seconds: 3600, file_size_mib: 4096 };

/** The ceiling consent shows and the receipt binds: what the manifest declares, zotbox's default for the rest. */
export function commandLimitCeiling(declared: { readonly [key in CommandLimitKey]?: number }): CommandLimits {
  return { ...DEFAULT_COMMAND_LIMITS, ...declared };
}

/** The limits in force: `requested` (a CLI flag or library option, named by `origin`) may only lower the ceiling. */
export function lowerCommandLimits(ceiling: CommandLimits, requested: { readonly [key in CommandLimitKey]?: number | undefined } | undefined, origin: string): CommandLimits {
  const limits = { ...ceiling };
  for (const { key } of COMMAND_LIMIT_FIELDS) {
    const value = requested?.[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) throw new ZotboxError('ZB_OPTION_INVALID', `${origin} ${key} takes a positive whole number, got ${JSON.stringify(value)}.`);
    if (value > ceiling[key]) {
      throw new ZotboxError(
        'ZB_COMMAND_LIMIT_RAISED',
        `${origin} asks for ${key} ${value}, above the ceiling of ${ceiling[key]} that the agent's permissions.limits (or zotbox's default) sets. An option can only lower a limit: give at most ${ceiling[key]}, or raise permissions.limits.${key} in the manifest (consent shows it).`,
        { details: { limit: key, requested: value, ceiling: ceiling[key] } },
      );
    }
    limits[key] = value;
  }
  return limits;
}

/** How the limits are enforced on this host. */
export type LimitEnforcement =
  | { readonly kind: 'cgroup2'; readonly parent: string }
  | { readonly kind: 'cgroup1'; readonly parents: { readonly pids: string; readonly memory: string; readonly cpu?: string } }
  /** `processesBound`: false as root, whom the kernel exempts from RLIMIT_NPROC. */
  | { readonly kind: 'rlimit'; readonly reason: string; readonly processesBound: boolean };

export interface LimitSetting {
  readonly limits: CommandLimits;
  readonly enforcement: LimitEnforcement;
}

const MIB = 1024 * 1024;

/** The limit a command reached, as its bash result reports it. */
export interface LimitReport {
  readonly code: 'ZB_COMMAND_LIMIT';
  readonly limit: CommandLimitKey;
  readonly value: number;
  readonly message: string;
}

const LIMIT_WORDS: Readonly<Record<CommandLimitKey, (value: number) => string>> = {
  processes: (n) => `its process limit (${n} processes): a process could not start`,
  memory_mib: (n) => `its memory limit (${n} MiB): the kernel killed a process for memory`,
  cpu_seconds: (n) => `its CPU time limit (${n} s of CPU per process)`,
  file_size_mib: (n) => `its file size limit (${n} MiB per file)`,
};

export function limitReport(limit: CommandLimitKey, value: number): LimitReport {
  return {
    code: 'ZB_COMMAND_LIMIT',
    limit,
    value,
    message: `the command reached ${LIMIT_WORDS[limit](value)} and was stopped with everything it started. Do less in one command (fewer parallel jobs, smaller inputs), or ask the user to run you with a higher permissions.limits.${limit}.`,
  };
}

/**
 * bubblewrap exits with 128 + the signal that ended the command: SIGXCPU (24) when a process used up its CPU time,
 * SIGXFSZ (25) when it wrote past the file size limit. A command that exits with 152 or 153 itself reads the same.
 */
export function limitOfExit(code: number | null, signal: string | null): CommandLimitKey | undefined {
  if (signal === 'SIGXCPU' || code === 128 + 24) return 'cpu_seconds';
  if (signal === 'SIGXFSZ' || code === 128 + 25) return 'file_size_mib';
  return undefined;
}

function readText(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined; // not there (or not readable): the caller treats the feature as absent
  }
}

/** A "name N" line of a cgroup's events or oom_control file; 0 when the file or line is absent. */
function counter(file: string, name: string): number {
  const line = (readText(file) ?? '').split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? 0 : Number(line.slice(name.length + 1));
}

interface Mount {
  readonly point: string;
  readonly type: string;
  readonly superOptions: readonly string[];
}

/** /proc/self/mountinfo: each mount's point (octal escapes undone), type and super options. */
function mounts(): Mount[] {
  const text = readText('/proc/self/mountinfo') ?? '';
  const unescape = (s: string) => s.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(Number.parseInt(octal, 8)));
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [before, after = ''] = line.split(' - ');
      const fields = (before ?? '').split(' ');
      const [type = '', , superOptions = ''] = after.split(' ');
      return { point: unescape(fields[4] ?? ''), type, superOptions: superOptions.split(',') };
    });
}

/** Makes a cgroup, writes `settings` (file → value) and removes it: whether this host lets zotbox do it. */
function probeCgroup(parent: string, settings: Readonly<Record<string, string>>): string | undefined {
  const probe = path.join(parent, `zotbox-probe-${process.pid}`);
  try {
    mkdirSync(probe);
  } catch (error) {
    return `cannot make a cgroup in ${parent} (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  }
  try {
    for (const [file, value] of Object.entries(settings)) writeFileSync(path.join(probe, file), value);
    return undefined;
  } catch (error) {
    return `cannot set limits in ${parent} (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
  } finally {
    try {
      rmdirSync(probe);
    } catch {
      // empty, just made: removal fails only if the hierarchy went away, and then nothing is left behind
    }
  }
}

/** cgroup v2: zotbox's own cgroup must offer pids and memory to its children (delegated), and a child must take limits. */
function detectCgroup2(cgroups: string, all: readonly Mount[]): LimitEnforcement | string {
  const own = /^0::(\/.*)$/m.exec(cgroups)?.[1];
  const mount = all.find((m) => m.type === 'cgroup2');
  if (own === undefined || mount === undefined) return 'no cgroup v2 hierarchy';
  const parent = path.join(mount.point, own);
  const controllers = (readText(path.join(parent, 'cgroup.controllers')) ?? '').trim().split(/\s+/);
  if (!controllers.includes('pids') || !controllers.includes('memory')) return `cgroup v2 does not delegate the pids and memory controllers to ${parent}`;
  const enabled = (readText(path.join(parent, 'cgroup.subtree_control')) ?? '').trim().split(/\s+/);
  if (!enabled.includes('pids') || !enabled.includes('memory')) {
    try {
      writeFileSync(path.join(parent, 'cgroup.subtree_control'), `+pids +memory${controllers.includes('cpu') ? ' +cpu' : ''}`);
    } catch (error) {
      return `cgroup v2: cannot enable the pids and memory controllers for children of ${parent} (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    }
  }
  const problem = probeCgroup(parent, { 'pids.max': '1', 'memory.max': String(MIB * 64) });
  return problem === undefined ? { kind: 'cgroup2', parent } : `cgroup v2: ${problem}`;
}

/** cgroup v1: the pids and memory hierarchies (cpu if present), at zotbox's own place in each, writable. */
function detectCgroup1(cgroups: string, all: readonly Mount[]): LimitEnforcement | string {
  const place = (controller: string) => {
    const own = new RegExp(`^[0-9]+:([^:]*,)?${controller}(,[^:]*)?:(/.*)$`, 'm').exec(cgroups)?.[3];
    const mount = all.find((m) => m.type === 'cgroup' && m.superOptions.includes(controller));
    return own === undefined || mount === undefined ? undefined : path.join(mount.point, own);
  };
  const pids = place('pids');
  const memory = place('memory');
  if (pids === undefined || memory === undefined) return 'no cgroup v1 pids and memory hierarchies';
  const problem = probeCgroup(pids, { 'pids.max': '1' }) ?? probeCgroup(memory, { 'memory.limit_in_bytes': String(MIB * 64) });
  if (problem !== undefined) return `cgroup v1: ${problem}`;
  const cpu = place('cpu');
  return { kind: 'cgroup1', parents: { pids, memory, ...(cpu === undefined || probeCgroup(cpu, {}) !== undefined ? {} : { cpu }) } };
}

let detected: LimitEnforcement | undefined;

/** Which mechanism bounds commands here, decided once per process by trying it. */
export function detectLimitEnforcement(): LimitEnforcement {
  if (detected !== undefined) return detected;
  const cgroups = readText('/proc/self/cgroup') ?? '';
  const all = mounts();
  const v2 = detectCgroup2(cgroups, all);
  if (typeof v2 !== 'string') return (detected = v2);
  const v1 = detectCgroup1(cgroups, all);
  if (typeof v1 !== 'string') return (detected = v1);
  detected = { kind: 'rlimit', reason: `${v2}; ${v1}`, processesBound: process.getuid?.() !== 0 };
  return detected;
}

/** How inspect and run.start describe the limits in force. */
export function describeLimits(setting: LimitSetting): string {
  const { limits, enforcement } = setting;
  const rlimits = `${limits.cpu_seconds} s of CPU time per process and files up to ${limits.file_size_mib} MiB (rlimits)`;
  if (enforcement.kind !== 'rlimit') {
    const version = enforcement.kind === 'cgroup2' ? 'v2' : 'v1';
    return `a cgroup ${version} per command: at most ${limits.processes} processes and ${limits.memory_mib} MiB of memory (no swap), killed whole at its end; ${rlimits}`;
  }
  const processes = enforcement.processesBound
    ? `at most ${limits.processes} processes (RLIMIT_NPROC, in the sandbox's own user namespace)`
    : 'processes NOT bounded (zotbox runs as root, which RLIMIT_NPROC does not bind)';
  return `rlimits only (no usable cgroup: ${enforcement.reason}): ${processes}, ${limits.memory_mib} MiB of data per process (RLIMIT_DATA), ${rlimits}`;
}

/** What `zotbox doctor` reports on the limits: how the defaults are enforced here, and whether prlimit is there to set the rlimits. */
export interface LimitFacts {
  readonly description: string;
  readonly prlimit: string | undefined;
}

export function limitFacts(searchPath: readonly string[] = COMMAND_SEARCH_PATH): LimitFacts {
  return { description: describeLimits({ limits: DEFAULT_COMMAND_LIMITS, enforcement: detectLimitEnforcement() }), prlimit: findProgram('prlimit', searchPath)?.foundAt };
}

/** The prlimit program the start script execs, found on the fixed system path (util-linux). */
export function prlimitProgram(searchPath: readonly string[]): string {
  const found = findProgram('prlimit', searchPath)?.foundAt;
  if (found === undefined) {
    throw new ZotboxError(
      'ZB_CONFINEMENT_UNAVAILABLE',
      `command refused: it must run with resource limits, and util-linux's prlimit is not on ${searchPath.join(':')}. Install util-linux (Debian/Ubuntu: apt-get install util-linux), then retry.`,
      { details: { reason: 'prlimit not found', cause: 'other' } },
    );
  }
  return found;
}

/**
 * The start script's arguments for the rlimits every command gets, set by the shell's own ulimit builtin in the
 * sandbox's user namespace (no program to exec): CPU time soft N, then hard N + 1 (so the soft one's signal comes
 * first; soft first, as a hard limit below the soft one is refused), and file size, soft and hard, in the 512-byte
 * blocks POSIX's ulimit -f counts (dash, and bash as sh, do).
 */
export function shellLimitArguments(limits: CommandLimits): string[] {
  return [String(limits.cpu_seconds), String(limits.cpu_seconds + 1), String((limits.file_size_mib * MIB) / 512)];
}

/** The start script's lines that set them from its first three arguments, then drop those. */
export const SHELL_LIMITS = 'ulimit -S -t "$1" && ulimit -H -t "$2" && ulimit -f "$3" && shift 3';

/**
 * The start script's prlimit and its arguments, up to its "--", for the rlimits only the fallback sets (processes and
 * data, whose ulimit flags differ between shells); none where a cgroup bounds them. Throws ZB_CONFINEMENT_UNAVAILABLE
 * when the fallback needs prlimit and it is missing.
 */
export function fallbackRlimitArguments(setting: LimitSetting, searchPath: readonly string[]): string[] {
  const { limits, enforcement } = setting;
  if (enforcement.kind !== 'rlimit') return [];
  return [prlimitProgram(searchPath), `--nproc=${limits.processes}:${limits.processes}`, `--data=${limits.memory_mib * MIB}:${limits.memory_mib * MIB}`, '--'];
}

/** One command's cgroup: joined before the command starts, watched while it runs, killed and removed at the end. */
export interface CommandCgroup {
  /**
   * Moves `pid` into the cgroup(s): the sandbox's start script, waiting to exec the command, before which nothing in
   * the sandbox forks (sandbox-processes.ts). Throws ZB_CONFINEMENT_UNAVAILABLE when it cannot be moved: the command must not run.
   */
  join(pid: number): void;
  /** Calls `onReached` once, at the first refused fork or memory kill seen. */
  watch(onReached: (limit: CommandLimitKey) => void): void;
  /**
   * After the command: which limit it reached, if any; then everything left in the cgroup is killed, and `removed`
   * settles once the cgroup is gone (or, still busy after every retry, kept for the next command to remove).
   */
  finish(): { limit: CommandLimitKey | undefined; removed: Promise<void> };
  /** The cumulative counters the limits are read from: refused forks, memory kills (a warm sandbox's calls compare them). */
  counts(): LimitCounts;
  /** The processes in the cgroup now (its first hierarchy's cgroup.procs); undefined when it cannot be read. */
  members(): number[] | undefined;
  /** At this process's exit, where nothing can be awaited: kills what is left and removes the cgroup, waiting briefly. */
  removeNow(): void;
}

export interface LimitCounts {
  readonly processes: number;
  readonly memory: number;
}

/** The limit reached between two readings of the counters, if any (processes first, as `finish` reports). */
export function limitBetween(before: LimitCounts, after: LimitCounts): CommandLimitKey | undefined {
  return after.processes > before.processes ? 'processes' : after.memory > before.memory ? 'memory_mib' : undefined;
}

/** Cgroups whose removal failed (processes still dying): tried again at the next command, and at exit. */
const leftover = new Set<string>();
let serial = 0;
/** Whether the exit hook that removes the leftovers is registered: once per process (one per failed removal would pile up). */
let exitHook = false;

/** Removes each cgroup it can; returns the ones still busy (a process of theirs not yet released). */
function removeCgroups(directories: Iterable<string>): string[] {
  const busy: string[] = [];
  for (const directory of directories) {
    try {
      rmdirSync(directory);
      leftover.delete(directory);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') leftover.delete(directory);
      else busy.push(directory);
    }
  }
  return busy;
}

/** Keeps busy cgroups for the next command, and for the process's exit. */
function keepLeftover(directories: readonly string[]): void {
  if (directories.length === 0) return;
  for (const directory of directories) leftover.add(directory);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => removeCgroups([...leftover]));
}

/**
 * How long, in all, the removal after a command waits for its killed processes to be released. The kernel releases a
 * killed process's cgroup some time after its exit was reported (rmdir says EBUSY until then), and cgroup v1 has no
 * notification of emptiness short of a release agent: so the removal retries after doubling pauses.
 */
const REMOVAL_PAUSES_MS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048];

/** Removes the cgroups, retrying while the kernel still holds them busy; what stays busy is kept as leftover. */
async function removeWhenReleased(directories: readonly string[]): Promise<void> {
  let busy = removeCgroups(directories);
  for (const pause of REMOVAL_PAUSES_MS) {
    if (busy.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, pause));
    busy = removeCgroups(busy);
  }
  keepLeftover(busy);
}

/** Every process in the cgroup gets SIGKILL: v2 at once through cgroup.kill, v1 one by one from cgroup.procs. */
function killCgroup(directories: readonly string[]): void {
  const kill = path.join(directories[0]!, 'cgroup.kill');
  try {
    writeFileSync(kill, '1');
    return;
  } catch {
    // no cgroup.kill (v1, or a kernel before 5.14): signal each process it lists
  }
  for (const directory of directories) {
    for (const pid of (readText(path.join(directory, 'cgroup.procs')) ?? '').split('\n').filter((l) => l !== '')) {
      try {
        process.kill(Number(pid), 'SIGKILL');
      } catch {
        // exited meanwhile
      }
    }
  }
}

/** Removes the cgroups, pausing in place (an exit handler cannot await) while the kernel still holds them busy. */
function removeBlocking(directories: readonly string[]): void {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  let busy = removeCgroups(directories);
  for (const ms of REMOVAL_PAUSES_MS.slice(0, 8)) {
    if (busy.length === 0) return;
    Atomics.wait(pause, 0, 0, ms);
    busy = removeCgroups(busy);
  }
  keepLeftover(busy);
}

/** How often a running command's cgroup counters are read: cgroup v1 notifies nothing, v2 only for some files. */
const WATCH_INTERVAL_MS = 100;

/** Makes the command's cgroup(s) with its limits; throws ZB_CONFINEMENT_UNAVAILABLE when that fails (nothing runs unbounded). */
export function createCommandCgroup(enforcement: LimitEnforcement & { kind: 'cgroup2' | 'cgroup1' }, limits: CommandLimits): CommandCgroup {
  removeCgroups([...leftover]);
  // A random part too: a zotbox process killed outright (SIGKILL, no exit hook) leaves its cgroups, and a later one
  // with the same PID would meet them (EEXIST) and refuse every command.
  const name = `zotbox-${process.pid}-${++serial}-${randomBytes(6).toString('hex')}`;
  const memory = String(limits.memory_mib * MIB);
  const v2 = enforcement.kind === 'cgroup2';
  const plan: { directory: string; settings: [string, string, 'required' | 'optional'][] }[] = v2
    ? [
        {
          directory: path.join(enforcement.parent, name),
          settings: [
            ['pids.max', String(limits.processes), 'required'],
            ['memory.max', memory, 'required'],
            ['memory.swap.max', '0', 'optional'],
          ],
        },
      ]
    : [
        { directory: path.join(enforcement.parents.pids, name), settings: [['pids.max', String(limits.processes), 'required']] },
        {
          directory: path.join(enforcement.parents.memory, name),
          settings: [
            ['memory.limit_in_bytes', memory, 'required'],
            ['memory.memsw.limit_in_bytes', memory, 'optional'],
          ],
        },
        ...(enforcement.parents.cpu === undefined ? [] : [{ directory: path.join(enforcement.parents.cpu, name), settings: [] }]),
      ];
  const made: string[] = [];
  try {
    for (const { directory, settings } of plan) {
      mkdirSync(directory);
      made.push(directory);
      for (const [file, value, need] of settings) {
        try {
          writeFileSync(path.join(directory, file), value);
        } catch (error) {
          if (need === 'required' || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
      }
    }
  } catch (error) {
    keepLeftover(removeCgroups(made));
    throw new ZotboxError('ZB_CONFINEMENT_UNAVAILABLE', `command refused: it must run in a cgroup with its limits, and ${String(error)}. \`zotbox doctor\` shows the limits in force.`, {
      details: { reason: 'cgroup', cause: 'other' },
    });
  }
  const pidsEvents = path.join(made[0]!, 'pids.events');
  const memoryCounter: [string, string] = v2 ? [path.join(made[0]!, 'memory.events'), 'oom_kill'] : [path.join(made[1]!, 'memory.oom_control'), 'oom_kill'];
  const counts = (): LimitCounts => ({ processes: counter(pidsEvents, 'max'), memory: counter(...memoryCounter) });
  const reached = (): CommandLimitKey | undefined => limitBetween({ processes: 0, memory: 0 }, counts());
  let timer: NodeJS.Timeout | undefined;
  return {
    join: (pid) => {
      for (const directory of made) {
        try {
          writeFileSync(path.join(directory, 'cgroup.procs'), String(pid));
        } catch (error) {
          throw new ZotboxError(
            'ZB_CONFINEMENT_UNAVAILABLE',
            `command refused: it must run in a cgroup with its limits, and its sandbox's start script (pid ${pid}) could not be moved into ${directory} (${(error as NodeJS.ErrnoException).code ?? String(error)}). \`zotbox doctor\` shows the limits in force.`,
            { details: { reason: 'cgroup', cause: 'other' } },
          );
        }
      }
    },
    watch: (onReached) => {
      timer = setInterval(() => {
        const limit = reached();
        if (limit === undefined) return;
        clearInterval(timer);
        onReached(limit);
      }, WATCH_INTERVAL_MS);
      timer.unref();
    },
    finish: () => {
      clearInterval(timer);
      const limit = reached();
      killCgroup(made);
      return { limit, removed: removeWhenReleased(made) };
    },
    counts,
    removeNow: () => {
      clearInterval(timer);
      killCgroup(made);
      removeBlocking(made);
    },
    members: () => {
      const text = readText(path.join(made[0]!, 'cgroup.procs'));
      return text === undefined
        ? undefined
        : text
            .split('\n')
            .filter((line) => line !== '')
            .map(Number);
    },
  };
}
