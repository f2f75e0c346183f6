// How each bash call's commands are started (issue 9 §1–3): inside a sandbox
// built for that call, or — only on the user's explicit --confine off — directly,
// or not at all when confinement is required and bubblewrap cannot start. Either
// way each command gets a private, empty HOME, git with its configured programs
// off, and after the call the git aftercare; unconfined, the session reaper.
// Confined, the command does not start until its sandbox is verified (issue 21
// §1): bubblewrap runs a fixed start script (/bin/sh, a trusted system program)
// that tells the host, on fd 3, that the namespace is complete, and waits there;
// the host then checks every mount of it through /proc/PID of the sandbox's init
// (its pid from --info-fd; mount-verification.ts) and only then releases the
// script, which execs the approved program with fd 3 closed. A mismatch kills
// the sandbox and refuses the call with ZB_CONFINEMENT_MOUNT_MOVED. Where the
// limits use a cgroup, the host moves the waiting start script into it just
// before the release (sandbox-processes.ts): no wrapper to exec first.
// bubblewrap's --block-fd is not used: it is read after setup, but nothing tells
// the host when the child has got there (--info-fd is written before setup).
// Each call, and each write or edit of the file tools, holds its write scopes
// (scope-lock.ts) from its record to the end of its aftercare, so no other run's
// command is in flight in them while it records, builds its sandbox, runs or
// puts back.
import { mkdtempSync, rmSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { writeHomeConfig } from './home-config.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { COMMAND_SEARCH_PATH, commandEnvironment, type GitDriverNames } from '../command-environment.js';
import { NO_PASSED_ENVIRONMENT, type PassedEnvironment } from '../passed-environment.js';
import { searchPathWith } from '../program-directories.js';
import { gitDriversOf, scanGitMetadata } from './git-inventory.js';
import { beginGitStateCheck, finishGitStateCheck, type GitStateCheck } from './git-state-check.js';
import { confinementUnavailable, type Confinement } from './mode.js';
import { ZotboxError } from '../../../errors.js';
import { mountMoved, verifySandboxMounts, type MountCheckProbe, type MountExpectation } from './mount-verification.js';
import { prepareSandbox, SANDBOX_HOME, START_CHANNEL_FD, type SandboxLayout } from './sandbox-plan.js';
import { recordProtected, type ProtectedRecord } from './protected-locations.js';
import { lockWriteScopes, type ScopeLock, type ScopeLockProbe } from './scope-lock.js';
import { killSession } from './session-reaper.js';
import { stateDirectoryPlaces } from './state-aliases.js';
import { buildSeccompFilter } from './seccomp-filter.js';
import { startScriptOf } from './sandbox-processes.js';
import {
  createCommandCgroup,
  DEFAULT_COMMAND_LIMITS,
  detectLimitEnforcement,
  fallbackRlimitArguments,
  SHELL_LIMITS,
  shellLimitArguments,
  type CommandLimits,
  type LimitSetting,
} from './command-limits.js';
import type { CommandLimitKey } from '../../../policy/manifest-fields.js';
import type { Duplex } from 'node:stream';
import type { NetConnection } from '../../../policy/net-allow.js';
import { bridgeCommand, bridgeNode, PROXY_URL } from './net-bridge.js';
import { WarmSlot, type HandedOff } from './warm-calls.js';

/**
 * net.allow's proxy (host/net), opened for each confined call: every command's
 * network carrier is attached to it, and closing it ends every connection and
 * gives the attempts it saw. Absent: commands have no network at all.
 */
export interface CallNetwork {
  open(): { attach(carrier: Duplex): void; close(): readonly NetConnection[] };
}

export interface CommandSpec {
  readonly cwd: string;
  /** The canonical program the gate approved (spawned unconfined, with argv0). */
  readonly program: string;
  /** Where it was found on the fixed PATH: run inside the sandbox, where bwrap has no argv0 (same file, its own basename). */
  readonly invokedPath: string;
  /** argv[0] as written (unconfined spawns keep it). */
  readonly argv0: string;
  readonly args: readonly string[];
  readonly assignments?: Readonly<Record<string, string>>;
}

export interface CommandLaunch {
  readonly kind?: 'spawn';
  readonly file: string;
  readonly args: readonly string[];
  readonly argv0?: string;
  readonly env: Record<string, string>;
  /** Where the spawned file starts on the host, when not the command's directory (bwrap: the command's is inside the sandbox, given by --chdir). */
  readonly hostCwd?: string;
  /** What the child gets as fd 3, 4, …: a descriptor, or 'pipe' for a channel `started` uses. */
  readonly extraStdio: readonly (number | 'pipe')[];
  /**
   * Right after the spawn, with the child's pid and its streams for extraStdio (index 0 is fd 3), and whether the
   * caller has killed the call's processes (a timeout or cancel) since: resolves once the command may run; rejects,
   * with the child's process group killed, when it must not. Absent: it runs at once.
   */
  readonly started?: (pid: number | undefined, streams: readonly (Readable | Writable | null | undefined)[], stopped: () => boolean) => Promise<void>;
  /** After the child exits: end what it left running, remove its private home (or its cgroup: the promise settles once it is gone). */
  readonly done: (pid: number | undefined) => Promise<void> | undefined;
  /** Confined: the command's resource limits; `watch` is told the first one the command reaches (at once where a cgroup shows it, else when it ends). */
  readonly limits?: { readonly values: CommandLimits; watch(onReached: (limit: CommandLimitKey) => void): void };
  /**
   * Whether the child's processes can outlive its process group only in its session (unconfined: the caller's
   * kill scans /proc for the session), or are all held in a PID namespace that the group kill ends (confined).
   */
  readonly contained: boolean;
}

/** A command run in the run's reused sandbox (warm-calls.ts) instead of a process spawned for it. */
export interface HandoffLaunch {
  readonly kind: 'handoff';
  /**
   * Starts it once the sandbox is verified; undefined when `stopped()` (a timeout or cancel) came first, and nothing
   * ran. Throws as a sandbox that may not run throws (ZB_CONFINEMENT_MOUNT_MOVED, ZB_CONFINEMENT_UNAVAILABLE).
   */
  start(stopped: () => boolean): Promise<HandedOff | undefined>;
  readonly limits: { readonly values: CommandLimits };
}

export interface CallIsolation {
  /**
   * Before each pipeline of an allowlisted line (`stages`: its commands): look at the scopes again, so that a
   * repository an earlier command of the line made has its control entries bound read-only and its drivers switched
   * off too. A call's first pipeline (or ask mode's one command) is prepared with the call.
   */
  beginPipeline(stages: number): void;
  launch(command: CommandSpec): CommandLaunch | HandoffLaunch;
  /** After the call: the git aftercare. Throws ZB_CONFINEMENT_GIT_PROGRAM after removing what broke the rules. */
  finish(): void;
  /** After finish: the connection attempts of the call's commands through the proxy (none without net.allow). */
  connections(): readonly NetConnection[];
}

/** Test seam: callbacks at the worst moments of a sandbox's start. Production never passes one; src/index.ts does not export it. */
export interface SandboxProbe extends MountCheckProbe, ScopeLockProbe {
  /** After the scan for git metadata, before zotbox opens what it found. */
  readonly afterScan?: () => void;
  /** After zotbox opened and checked every bind source, before bubblewrap is spawned. */
  readonly beforeSpawn?: () => void;
  /** After bubblewrap made every mount (the start script is waiting), before the host verifies them: the sandbox init's pid and what will be verified. */
  readonly beforeVerify?: (sandboxPid: number, expectations: readonly MountExpectation[]) => void;
  /** Each confined command: whether it started a sandbox of its own, started the run's reused one, or reused it. */
  readonly sandboxUsed?: (how: 'cold' | 'warm' | 'reused') => void;
  /** Every command in a sandbox of its own (the start script's path), as with net.allow. */
  readonly cold?: boolean;
}

export interface CommandIsolation {
  readonly confinement: Confinement;
  /**
   * Once no other call holds an overlapping write scope (scope-lock.ts; `signal` ends the wait): the call, holding
   * them until its finish. Throws ZB_CONFINEMENT_UNAVAILABLE, ZB_CONFINEMENT_BIND_UNSAFE or ZB_CONFINEMENT_SCOPE_LOCK:
   * then nothing runs and nothing is held.
   */
  beginCall(signal?: AbortSignal): Promise<CallIsolation>;
  /** Before a write or edit of the file tools, whatever the confinement: the same git-state check a bash call gets, holding the write scopes the same way until its finish. */
  beginFileWrite(signal?: AbortSignal): Promise<GitStateCheck>;
  /** The run ended: its reused sandbox, if any, is ended (awaited) once no command is in it. */
  release(): Promise<void>;
}

let filter: Buffer | undefined;
function seccompFilter(): Buffer {
  filter ??= buildSeccompFilter();
  return filter;
}

/** Records the protected files; a failure closes the sandbox first (nothing ran). */
function recordWith(sandbox: { close(): void }, make: () => ProtectedRecord): ProtectedRecord {
  try {
    return make();
  } catch (error) {
    sandbox.close();
    throw error;
  }
}

/** `begin` while holding `lock`; a failure releases it (nothing ran). */
function holding<T>(lock: ScopeLock, begin: () => T): T {
  try {
    return begin();
  } catch (error) {
    lock.release();
    throw error;
  }
}

/**
 * The start script: set the command's rlimits (its first three arguments: command-limits.ts), tell the host the
 * namespace is built, wait for its go (a line), then run the command without the channel. If a limit cannot be set,
 * or the host closes the channel instead, nothing runs.
 */
const START_SCRIPT = `${SHELL_LIMITS} && printf . >&${START_CHANNEL_FD} && read -r _ <&${START_CHANNEL_FD} && exec "$@" ${START_CHANNEL_FD}<&-`;

function collect(stream: Readable | undefined): Promise<string> {
  return new Promise((resolve) => {
    if (stream === undefined) return resolve('');
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('error', () => resolve(Buffer.concat(chunks).toString('utf8')));
    stream.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Resolves true at the start script's first byte, false if the channel ends first (bubblewrap failed: its exit says why). */
function announced(channel: Readable): Promise<boolean> {
  return new Promise((resolve) => {
    channel.once('data', () => resolve(true));
    channel.once('error', () => resolve(false));
    channel.once('end', () => resolve(false));
  });
}

/**
 * Waits for the sandbox to be built, verifies its mounts, moves its start script into the command's cgroup (`join`,
 * where the limits use one), then lets the command start; on a mismatch or a failed move kills it.
 */
async function releaseVerified(
  pid: number | undefined,
  channel: (Readable & Writable) | undefined,
  info: Readable | undefined,
  expectations: readonly MountExpectation[],
  probe: SandboxProbe | undefined,
  stopped: () => boolean,
  join: ((pid: number) => void) | undefined,
): Promise<void> {
  if (channel === undefined || pid === undefined) return; // not spawned: the exit reports it
  channel.on('error', () => undefined); // the sandbox died: its exit status reports why
  const [ready, infoText] = await Promise.all([announced(channel), collect(info)]);
  if (!ready) return;
  const childPid = Number(/"child-pid":\s*([0-9]+)/u.exec(infoText)?.[1]);
  try {
    if (!Number.isInteger(childPid) || childPid <= 0) throw new Error(`bubblewrap reported no sandbox pid (${JSON.stringify(infoText)})`);
    probe?.beforeVerify?.(childPid, expectations);
    verifySandboxMounts(childPid, expectations, probe);
    join?.(startScriptOf(pid, childPid));
  } catch (error) {
    // Killed meanwhile (a timeout, a cancel): nothing of it can run, and the exit reports the kill, not a refusal.
    if (stopped()) {
      channel.destroy();
      return;
    }
    try {
      process.kill(-pid, 'SIGKILL'); // the whole sandbox: bubblewrap leads its group
    } catch {
      // already gone: nothing of it can run
    }
    channel.destroy();
    throw error instanceof ZotboxError ? error : mountMoved('/', `could not be verified (${String(error)})`);
  }
  channel.end('\n');
}

/** The command's cgroup where the limits use one (the sandbox joins it before the command starts), and its launch's `limits`. */
function boundCommand(setting: LimitSetting): {
  join: ((pid: number) => void) | undefined;
  limits: NonNullable<CommandLaunch['limits']>;
  done: () => Promise<void> | undefined;
} {
  const { enforcement } = setting;
  const cgroup = enforcement.kind === 'rlimit' ? undefined : createCommandCgroup(enforcement, setting.limits);
  let report: ((limit: CommandLimitKey) => void) | undefined;
  return {
    join: cgroup === undefined ? undefined : (pid) => cgroup.join(pid),
    limits: {
      values: setting.limits,
      watch: (onReached) => {
        report = onReached;
        cgroup?.watch(onReached);
      },
    },
    done: () => {
      if (cgroup === undefined) return undefined;
      const { limit, removed } = cgroup.finish();
      if (limit !== undefined) report?.(limit);
      return removed;
    },
  };
}

function bubblewrapCall(
  bwrap: string,
  layout: SandboxLayout,
  passed: PassedEnvironment,
  probe: SandboxProbe | undefined,
  lock: ScopeLock,
  setting: LimitSetting,
  network: CallNetwork | undefined,
  warm: WarmSlot | undefined,
): CallIsolation {
  // Only the rlimit fallback execs prlimit (for processes and data); looked up before anything is built.
  const fallbackRlimits = fallbackRlimitArguments(setting, COMMAND_SEARCH_PATH);
  const node = network === undefined ? undefined : bridgeNode();
  let sandbox = prepareSandbox(layout, { seccomp: true, ...(probe?.afterScan === undefined ? {} : { afterScan: probe.afterScan }) });
  const proxy = network?.open();
  let connections: readonly NetConnection[] = [];
  // The aftercare compares with the scopes as they were before the call's first command.
  const before = sandbox.inventory;
  const record = recordWith(sandbox, () => recordProtected(sandbox.protectedSet, layout.writeRoots));
  let pipelines = 0;
  let stages = 1;
  let finished = false;
  const environment = (command: CommandSpec) =>
    commandEnvironment(SANDBOX_HOME, command.assignments, sandbox.drivers, passed, searchPathWith(layout.programDirectories ?? []), proxy === undefined ? undefined : PROXY_URL);
  return {
    beginPipeline: (commands) => {
      stages = commands;
      if (pipelines++ === 0) return; // the first was prepared with the call
      sandbox.close();
      sandbox = prepareSandbox(layout, { seccomp: true, ...(probe?.afterScan === undefined ? {} : { afterScan: probe.afterScan }) });
    },
    launch: (command) => {
      sandbox.verifyMountPoints();
      // A pipeline's stages run side by side, each in a sandbox of its own; so does a call with a network bridge.
      if (warm !== undefined && warm.free && proxy === undefined && stages === 1 && warm.suits(sandbox)) {
        const prepared = sandbox;
        const identity = warm.identityOf(prepared);
        // PWD as the cold sandbox's start script (a shell) exports it to the command.
        const run = { cwd: command.cwd, argv: [command.invokedPath, ...command.args], env: { ...environment(command), PWD: command.cwd } };
        return { kind: 'handoff', limits: { values: setting.limits }, start: (stopped) => warm.run(prepared, identity, run, stopped, probe) };
      }
      probe?.sandboxUsed?.('cold');
      probe?.beforeSpawn?.();
      const { expectations } = sandbox;
      const fds = sandbox.descriptors();
      // fd 3 the start channel, then the bind sources, the seccomp filter's pipe, the pipe bwrap writes its info to,
      // and with net.allow the network carrier (a socket pair) the bridge runs the command behind.
      const infoFd = START_CHANNEL_FD + 1 + fds.length + 1;
      const bound = boundCommand(setting);
      const bwrapArgs = [...sandbox.args, '--info-fd', String(infoFd), '--chdir', command.cwd, '--', '/bin/sh', '-c', START_SCRIPT, 'zotbox-start', ...shellLimitArguments(setting.limits)];
      const run = proxy === undefined || node === undefined ? [command.invokedPath, ...command.args] : bridgeCommand(node, infoFd + 1, command.invokedPath, command.args);
      return {
        // The command's directory may exist only in the sandbox (/zotbox, the agent's package): bwrap starts from "/".
        hostCwd: '/',
        // The start script sets the rlimits inside the user namespace and execs the command (or the network bridge that
        // runs it); with the rlimit fallback, through prlimit, which sets the processes and data limits first.
        file: bwrap,
        args: [...bwrapArgs, ...fallbackRlimits, ...run],
        limits: bound.limits,
        env: environment(command),
        extraStdio: ['pipe', ...fds, 'pipe', 'pipe', ...(proxy === undefined ? [] : ['pipe' as const])],
        started: (pid, streams, stopped) => {
          const carrier = streams[3 + fds.length] as Duplex | undefined;
          if (proxy !== undefined && carrier !== undefined) proxy.attach(carrier);
          // bwrap reads the filter from a pipe to its end (no file to leave behind).
          const filterInput = streams[1 + fds.length] as Writable | undefined;
          filterInput?.on('error', () => undefined); // the child exited before reading: its exit status reports why
          filterInput?.end(seccompFilter());
          return releaseVerified(pid, streams[0] as (Readable & Writable) | undefined, streams[2 + fds.length] as Readable | undefined, expectations, probe, stopped, bound.join);
        },
        done: bound.done, // the PID namespace ended with the command; its cgroup, if any, is killed whole and removed
        // bubblewrap leads its group, its init is in it, and the init's end kills the whole PID namespace.
        contained: true,
      };
    },
    finish: () => {
      if (finished) return;
      finished = true;
      try {
        sandbox.close();
        if (proxy !== undefined) connections = proxy.close();
        finishGitStateCheck(layout, before, record);
      } finally {
        lock.release();
      }
    },
    connections: () => connections,
  };
}

function unconfinedCall(layout: SandboxLayout, passed: PassedEnvironment, lock: ScopeLock): CallIsolation {
  const check = beginGitStateCheck(layout);
  let drivers: GitDriverNames = gitDriversOf(check.before);
  let pipelines = 0;
  return {
    beginPipeline: () => {
      if (pipelines++ > 0) drivers = gitDriversOf(scanGitMetadata(layout.writeRoots, stateDirectoryPlaces(layout.stateDirectory), true, layout.userGit?.home));
    },
    launch: (command) => {
      const home = mkdtempSync(path.join(tmpdir(), 'zotbox-home-'));
      writeHomeConfig(home);
      return {
        file: command.program,
        args: [...command.args],
        argv0: command.argv0,
        env: commandEnvironment(home, command.assignments, drivers, passed, searchPathWith(layout.programDirectories ?? [])),
        extraStdio: [],
        done: (pid) => {
          if (pid !== undefined) killSession(pid);
          rmSync(home, { recursive: true, force: true });
          return undefined;
        },
        contained: false,
      };
    },
    finish: () => {
      try {
        check.finish();
      } finally {
        lock.release();
      }
    },
    connections: () => [],
  };
}

/** The sandbox's layout, and the user's variables the agent's commands get (permissions.env.read; none when absent). */
export interface IsolationLayout extends SandboxLayout {
  readonly passed?: PassedEnvironment;
}

/**
 * `probe` is a test seam (SandboxProbe): production never passes one. `limits`: each confined command's resource
 * limits and how they are enforced (default: zotbox's default limits, by the mechanism this host offers); `network`:
 * net.allow's proxy, opened for each call (absent: no network).
 */
export function createCommandIsolation(confinement: Confinement, layout: IsolationLayout, probe?: SandboxProbe, limits?: LimitSetting, network?: CallNetwork): CommandIsolation {
  const passed = layout.passed ?? NO_PASSED_ENVIRONMENT;
  const setting = limits ?? { limits: DEFAULT_COMMAND_LIMITS, enforcement: detectLimitEnforcement() };
  // One reused sandbox per run (warm-calls.ts): only confined, and never where net.allow gives each call its bridge.
  const warm = confinement.kind === 'bubblewrap' && network === undefined && probe?.cold !== true ? new WarmSlot(confinement.bwrap, setting, seccompFilter) : undefined;
  return {
    confinement,
    release: () => warm?.release() ?? Promise.resolve(),
    beginFileWrite: async (signal) => {
      const lock = await lockWriteScopes(layout.writeRoots, { ...(signal === undefined ? {} : { signal }), ...(probe === undefined ? {} : { probe }) });
      const check = holding(lock, () => beginGitStateCheck(layout));
      return {
        before: check.before,
        finish: () => {
          try {
            check.finish();
          } finally {
            lock.release();
          }
        },
      };
    },
    beginCall: async (signal) => {
      if (confinement.kind === 'unavailable') throw confinementUnavailable(confinement);
      // net.allow is enforced only by the sandbox's proxy: an unconfined call never gets a network of its own (run-net.ts refuses such runs).
      if (network !== undefined && confinement.kind !== 'bubblewrap')
        throw new ZotboxError('ZB_CONFINEMENT_NET_UNCONFINED', 'permissions.net.allow is enforced only in the sandbox; this call is unconfined.');
      const lock = await lockWriteScopes(layout.writeRoots, { ...(signal === undefined ? {} : { signal }), ...(probe === undefined ? {} : { probe }) });
      return holding(lock, () => (confinement.kind === 'bubblewrap' ? bubblewrapCall(confinement.bwrap, layout, passed, probe, lock, setting, network, warm) : unconfinedCall(layout, passed, lock)));
    },
  };
}
