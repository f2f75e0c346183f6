// Which confined commands run in a reused sandbox, and how (docs/security.md "A sandbox reused between calls"). A
// run keeps at most one warm sandbox (warm-sandbox.ts). A command may use it only when the plan prepareSandbox made
// for this very call has the identity the sandbox was built from (plan-identity.ts), and only after the host has
// verified, in the live namespace, every mount against this call's expectations, found the same set of mounts as at
// its start, and found no process in it but its init. Anything else drops it (killed whole, awaited) and starts a
// new one from this call's plan, verified like a cold sandbox. Limits: the CPU and file-size rlimits, and the
// fallback's process and data rlimits, are set by the init for each command; a cgroup, where the limits use one,
// holds the sandbox for its life (its process limit counts the init too), and each call compares its counters.
import { closeSync, readdirSync, readFileSync, writeSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { createCommandCgroup, limitBetween, type CommandCgroup, type LimitCounts, type LimitSetting } from './command-limits.js';
import type { CommandLimitKey } from '../../../policy/manifest-fields.js';
import { makePipe, warmInitDescriptor } from './fd-passing.js';
import { mountMoved, parseMountInfo, verifySandboxMounts, type MountCheckProbe, type MountExpectation } from './mount-verification.js';
import { planIdentity } from './plan-identity.js';
import type { PreparedSandbox } from './sandbox-plan.js';
import { SANDBOX_HOME } from './sandbox-plan.js';
import { startWarmSandbox, type WarmSandbox } from './warm-sandbox.js';
import { exitOf, RLIMIT, type WarmCall } from './warm-init-protocol.js';

const MIB = 1024 * 1024;

/** How often a running call's cgroup counters are read (cgroup v1 notifies nothing). */
const WATCH_INTERVAL_MS = 100;

/** Callbacks at the worst moments (command-isolation.ts's SandboxProbe passes them on); production passes none. */
export interface WarmProbe extends MountCheckProbe {
  readonly beforeSpawn?: () => void;
  readonly beforeVerify?: (sandboxPid: number, expectations: readonly MountExpectation[]) => void;
  /** Each confined command: whether it started a sandbox of its own, started a warm one, or reused the warm one. */
  readonly sandboxUsed?: (how: 'cold' | 'warm' | 'reused') => void;
}

/** One command as the init runs it. */
export interface WarmCommand {
  readonly cwd: string;
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** A command handed to the warm sandbox: its output as it comes, how it ended, and how to end it early. */
export interface HandedOff {
  readonly stdout: Readable;
  readonly stderr: Readable;
  readonly exit: Promise<{ code: number | null; signal: string | null }>;
  /** Calls `onReached` once, at the first limit the command reaches: while it runs where a cgroup shows it, else at its end. */
  watch(onReached: (limit: CommandLimitKey) => void): void;
  kill(): void;
}

interface Warm {
  readonly identity: string;
  readonly sandbox: WarmSandbox;
  readonly mountIds: string;
  readonly cgroup: CommandCgroup | undefined;
}

/** The ids of every mount in the sandbox, sorted: a mount that came or went shows as a different text. */
function mountIdsOf(pid: number): string {
  return [...parseMountInfo(readFileSync(`/proc/${pid}/mountinfo`, 'utf8')).keys()].sort((a, b) => a - b).join(',');
}

/** Whether the init has any child: every process of its namespace descends from it, so none means it is alone. */
function initHasChildren(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim() !== '';
  } catch {
    return true; // cannot read: never "nothing there"
  }
}

/** This process's umask, which a spawned command inherits (read, not set and reset as process.umask() would). */
function processUmask(): number {
  const line = /^Umask:\s*([0-7]+)$/m.exec(readFileSync('/proc/self/status', 'utf8'));
  return line === null ? 0o022 : Number.parseInt(line[1]!, 8);
}

/** How many threads a process has (the init has one: a second would be code of someone else's running in it). */
function threadsOf(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/task`).length;
  } catch {
    return 0; // cannot read: never "nothing there"
  }
}

/**
 * The sandbox's own writable places the init empties after each call: its fresh tmpfs mounts (/tmp, /dev/shm, the
 * state masks), never one a scope is bound at (there the path shows the user's own directory).
 */
export function placesToEmpty(expectations: readonly MountExpectation[]): string[] {
  const bound = new Set(expectations.filter((e) => e.kind === 'bind').map((e) => e.target));
  return expectations.filter((e) => e.kind === 'fresh' && !e.readOnly && !bound.has(e.target)).map((e) => e.target);
}

/** The rlimits the init sets for each command (the cold sandbox's start script and prlimit set the same). */
function callLimits(setting: LimitSetting): WarmCall['limits'] {
  const { limits, enforcement } = setting;
  const exact = (resource: number, value: number) => ({ resource, soft: BigInt(value), hard: BigInt(value) });
  return [
    { resource: RLIMIT.CPU, soft: BigInt(limits.cpu_seconds), hard: BigInt(limits.cpu_seconds + 1) },
    exact(RLIMIT.FSIZE, limits.file_size_mib * MIB),
    ...(enforcement.kind === 'rlimit' ? [exact(RLIMIT.NPROC, limits.processes), exact(RLIMIT.DATA, limits.memory_mib * MIB)] : []),
  ];
}

/** A wait status as node reports a child's exit; -1 (the init gave none: it died, or it was ended) as a kill. */
function exitStatus(status: number): { code: number | null; signal: string | null } {
  if (status < 0) return { code: null, signal: 'SIGKILL' };
  const exit = exitOf(status);
  if ('code' in exit) return { code: exit.code, signal: null };
  const name = Object.entries(osConstants.signals).find(([, number]) => number === exit.signal)?.[0];
  return { code: null, signal: name ?? `SIG${exit.signal}` };
}

/** Every warm sandbox of this process: ended when it exits, as --die-with-parent would, and its cgroup removed. */
const live = new Set<Warm>();
let exitHook = false;

function endAtExit(warm: Warm): void {
  live.add(warm);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const each of live) each.sandbox.killNow();
    for (const each of live) each.cgroup?.removeNow();
  });
}

/** The run's warm sandbox: at most one, used by one command at a time. */
export class WarmSlot {
  private warm: Warm | undefined;
  private inUse = false;
  /** The run ended while a command was in the sandbox: it is ended when that command ends. */
  private released = false;
  private readonly umask = processUmask();
  constructor(
    private readonly bwrap: string,
    private readonly setting: LimitSetting,
    private readonly seccomp: () => Buffer,
  ) {
    // Now, before any command of the run: the native module and a sealed copy of the init (fd-passing.ts).
    warmInitDescriptor();
  }

  /** Whether a command may take the slot now (no other command of this run is in it). */
  get free(): boolean {
    return !this.inUse;
  }

  /**
   * Whether `prepared`'s sandbox can be reused at all: its /tmp (where HOME is made) and every other writable place of
   * its own are its fresh tmpfs, none with a scope bound at it. Otherwise each command gets a sandbox of its own.
   */
  suits(prepared: PreparedSandbox): boolean {
    const own = prepared.expectations.filter((e) => e.kind === 'fresh' && !e.readOnly).map((e) => e.target);
    const places = placesToEmpty(prepared.expectations);
    return places.length === own.length && places.includes(path.dirname(SANDBOX_HOME));
  }

  /** The identity of the sandbox `prepared` would build. */
  identityOf(prepared: PreparedSandbox): string {
    const { limits, enforcement } = this.setting;
    return planIdentity({
      args: prepared.args,
      expectations: prepared.expectations,
      copiedSources: prepared.copiedSources(),
      seccomp: this.seccomp(),
      // The mechanism is part of it: a cgroup that came or went changes how the limits hold.
      limits: { ...limits, enforcement: ['rlimit', 'cgroup1', 'cgroup2'].indexOf(enforcement.kind) },
    });
  }

  /**
   * Takes the slot (the caller checked `free`) and runs `command` in the sandbox of `prepared`'s plan: reused when
   * its identity is `identity` and it verifies, else a new one. Throws what a cold sandbox's start throws
   * (ZB_CONFINEMENT_MOUNT_MOVED, ZB_CONFINEMENT_UNAVAILABLE), with nothing run; `stopped()` true once the caller's
   * time limit or cancel ended the call: then nothing is started either, and undefined is returned.
   */
  async run(prepared: PreparedSandbox, identity: string, command: WarmCommand, stopped: () => boolean, probe: WarmProbe | undefined): Promise<HandedOff | undefined> {
    this.inUse = true;
    this.released = false;
    try {
      const warm = await this.sandboxFor(prepared, identity, probe);
      if (stopped()) {
        this.inUse = false;
        return undefined;
      }
      return this.handOff(warm, command);
    } catch (error) {
      this.inUse = false;
      // Killed meanwhile (a timeout, a cancel): nothing ran, and the call reports the kill, not a refusal.
      if (stopped()) return undefined;
      throw error;
    }
  }

  /** Drops the sandbox once no command is in it (the run ended). */
  async release(): Promise<void> {
    if (this.inUse) {
      this.released = true; // ended with the command
      return;
    }
    await this.drop();
  }

  private async drop(): Promise<void> {
    const warm = this.warm;
    this.warm = undefined;
    if (warm === undefined) return;
    await warm.sandbox.drop();
    await warm.cgroup?.finish().removed;
    live.delete(warm); // only now: a process that exits meanwhile still removes its cgroup
  }

  /** Whether nothing but the init is left in the sandbox: no child of it, and (with a cgroup) no other member. */
  private alone(warm: Warm): boolean {
    if (mountIdsOf(warm.sandbox.pid) !== warm.mountIds || initHasChildren(warm.sandbox.pid) || threadsOf(warm.sandbox.pid) !== 1) return false;
    if (warm.cgroup === undefined) return true;
    const members = warm.cgroup.members();
    return members?.length === 1 && members[0] === warm.sandbox.pid;
  }

  /** Whether the live sandbox may take this call: same plan, every mount as expected, the same mounts, no process left. */
  private reusable(warm: Warm, prepared: PreparedSandbox, identity: string, probe: WarmProbe | undefined): boolean {
    if (warm.sandbox.dropped || warm.identity !== identity) return false;
    try {
      probe?.beforeVerify?.(warm.sandbox.pid, prepared.expectations);
      verifySandboxMounts(warm.sandbox.pid, prepared.expectations, probe);
      return this.alone(warm);
    } catch {
      return false; // a new sandbox is verified from scratch: its failure is the one reported
    }
  }

  private async sandboxFor(prepared: PreparedSandbox, identity: string, probe: WarmProbe | undefined): Promise<Warm> {
    probe?.beforeSpawn?.();
    const current = this.warm;
    if (current !== undefined && this.reusable(current, prepared, identity, probe)) {
      probe?.sandboxUsed?.('reused');
      return current;
    }
    await this.drop();
    const started = await this.start(prepared, identity, probe);
    probe?.sandboxUsed?.('warm');
    this.warm = started;
    endAtExit(started);
    return started;
  }

  /** A new warm sandbox from `prepared`: verified, in its cgroup, before it is kept. */
  private async start(prepared: PreparedSandbox, identity: string, probe: WarmProbe | undefined): Promise<Warm> {
    // bwrap reads the filter from a pipe to its end: written whole first (it is far smaller than a pipe's buffer).
    const filter = makePipe();
    try {
      writeSync(filter.b, this.seccomp());
    } finally {
      closeSync(filter.b);
    }
    let sandbox: WarmSandbox;
    try {
      sandbox = await startWarmSandbox({
        bwrap: this.bwrap,
        args: prepared.args,
        descriptors: [...prepared.descriptors(), filter.a],
        emptied: placesToEmpty(prepared.expectations),
        made: [SANDBOX_HOME],
      });
    } finally {
      closeSync(filter.a);
    }
    let cgroup: CommandCgroup | undefined;
    try {
      probe?.beforeVerify?.(sandbox.pid, prepared.expectations);
      verifySandboxMounts(sandbox.pid, prepared.expectations, probe);
      let mountIds: string;
      try {
        mountIds = mountIdsOf(sandbox.pid);
      } catch (cause) {
        throw mountMoved('/', `could not be inspected from the host (${(cause as NodeJS.ErrnoException).code ?? String(cause)})`);
      }
      const { enforcement, limits } = this.setting;
      if (enforcement.kind !== 'rlimit') {
        // The init counts as one of the sandbox's processes: the commands keep the whole limit.
        cgroup = createCommandCgroup(enforcement, { ...limits, processes: limits.processes + 1 });
        cgroup.join(sandbox.pid);
      }
      return { identity, sandbox, mountIds, cgroup };
    } catch (error) {
      await sandbox.drop();
      await cgroup?.finish().removed;
      throw error;
    }
  }

  private handOff(warm: Warm, command: WarmCommand): HandedOff {
    const before: LimitCounts | undefined = warm.cgroup?.counts();
    const running = warm.sandbox.start({ cwd: command.cwd, argv: command.argv, env: command.env, umask: this.umask, limits: callLimits(this.setting) });
    let report: ((limit: CommandLimitKey) => void) | undefined;
    let reported = false;
    const check = () => {
      if (reported || warm.cgroup === undefined || before === undefined) return;
      const limit = limitBetween(before, warm.cgroup.counts());
      if (limit === undefined) return;
      reported = true;
      report?.(limit);
    };
    let timer: NodeJS.Timeout | undefined;
    let ended = false;
    const exit = running.ended.then(async ({ status, dropped }) => {
      ended = true;
      clearInterval(timer);
      check();
      // The init says every process of the command has ended; the host checks it itself before any aftercare.
      let alone = false;
      try {
        alone = !dropped && this.alone(warm);
      } catch {
        alone = false; // cannot look: never "nothing there"
      }
      if ((!alone || this.released) && this.warm === warm) await this.drop();
      this.inUse = false;
      return exitStatus(status);
    });
    return {
      stdout: running.stdout,
      stderr: running.stderr,
      exit,
      watch: (onReached) => {
        report = onReached;
        if (warm.cgroup === undefined) return;
        timer = setInterval(check, WATCH_INTERVAL_MS);
        timer.unref();
      },
      // The init kills every process of the call at once and answers once they are reaped, as the end of a cold
      // sandbox's PID namespace would; the caller kills every command of a call at its end, when this one has ended.
      kill: () => {
        if (!ended) warm.sandbox.kill();
      },
    };
  }
}
