// How each bash call's commands are started (issue 9 §1–3): inside a sandbox
// built for that call, or — only on the user's explicit --confine off — directly,
// or not at all when confinement is required and bubblewrap cannot start. Either
// way each command gets a private, empty HOME, git with its configured programs
// off, and after the call the git aftercare; unconfined, the session reaper.
import { mkdtempSync, rmSync } from 'node:fs';
import { writeHomeConfig } from './home-config.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { commandEnvironment, type GitDriverNames } from '../command-environment.js';
import { gitProgramError, removeUnsafeGitChanges, restoreControlFiles, snapshotControlFiles } from './git-aftercare.js';
import { gitDriversOf, scanGitMetadata, type GitInventory } from './git-inventory.js';
import { confinementUnavailable, type Confinement } from './mode.js';
import { prepareSandbox, SANDBOX_HOME, type SandboxLayout } from './sandbox-plan.js';
import { protectedFileError, protectedSetOf, recordProtected, restoreProtected, type ProtectedRecord } from './protected-locations.js';
import { killSession } from './session-reaper.js';
import { buildSeccompFilter } from './seccomp-filter.js';

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
  readonly file: string;
  readonly args: readonly string[];
  readonly argv0?: string;
  readonly env: Record<string, string>;
  /** Descriptors the child gets as fd 3, 4, … */
  readonly extraFds: readonly number[];
  /** Bytes the child reads from one more pipe, the fd right after extraFds. */
  readonly pipedInput?: Buffer;
  /** After the child exits: end what it left running, remove its private home. */
  readonly done: (pid: number | undefined) => void;
}

export interface CallIsolation {
  /**
   * Before each pipeline of an allowlisted line: look at the scopes again, so that a repository an earlier
   * command of the line made has its control entries bound read-only and its drivers switched off too.
   */
  beginPipeline(): void;
  launch(command: CommandSpec): CommandLaunch;
  /** After the call: the git aftercare. Throws ZB_CONFINEMENT_GIT_PROGRAM after removing what broke the rules. */
  finish(): void;
}

export interface CommandIsolation {
  readonly confinement: Confinement;
  /** Throws ZB_CONFINEMENT_UNAVAILABLE or ZB_CONFINEMENT_BIND_UNSAFE: then nothing runs. */
  beginCall(): CallIsolation;
}

let filter: Buffer | undefined;
function seccompFilter(): Buffer {
  filter ??= buildSeccompFilter();
  return filter;
}

function aftercare(layout: SandboxLayout, before: GitInventory, record: ProtectedRecord, snapshot?: Map<string, string>): void {
  // No size limit here: whatever the command made must all be checked, however many directories it made.
  const after = scanGitMetadata(layout.writeRoots, layout.stateDirectory === undefined ? [] : [layout.stateDirectory], false);
  const violations = [...(snapshot === undefined ? [] : restoreControlFiles(snapshot, before, after)), ...removeUnsafeGitChanges(before, after)];
  // Then what the user's other tools run (and what git config names outside git directories) is put back (issue 21 §3, §5).
  const changes = restoreProtected(record, protectedSetOf(after, layout.writeRoots, layout.userGit), layout.writeRoots);
  if (violations.length > 0) throw gitProgramError(violations);
  if (changes.length > 0) throw protectedFileError(changes);
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

function bubblewrapCall(bwrap: string, layout: SandboxLayout): CallIsolation {
  let sandbox = prepareSandbox(layout, { seccomp: true });
  // The aftercare compares with the scopes as they were before the call's first command.
  const before = sandbox.inventory;
  const record = recordWith(sandbox, () => recordProtected(sandbox.protectedSet, layout.writeRoots));
  let pipelines = 0;
  let finished = false;
  return {
    beginPipeline: () => {
      if (pipelines++ === 0) return; // the first was prepared with the call
      sandbox.close();
      sandbox = prepareSandbox(layout, { seccomp: true });
    },
    launch: (command) => {
      sandbox.verifyMountPoints();
      return {
        file: bwrap,
        args: [...sandbox.args, '--chdir', command.cwd, '--', command.invokedPath, ...command.args],
        env: commandEnvironment(SANDBOX_HOME, command.assignments, sandbox.drivers),
        extraFds: sandbox.fds,
        // bwrap reads the filter from a pipe to its end (no file to leave behind), on the fd after the binds.
        pipedInput: seccompFilter(),
        done: () => undefined, // the PID namespace ended with the command
      };
    },
    finish: () => {
      if (finished) return;
      finished = true;
      sandbox.close();
      aftercare(layout, before, record);
    },
  };
}

function unconfinedCall(layout: SandboxLayout): CallIsolation {
  const before = scanGitMetadata(layout.writeRoots, layout.stateDirectory === undefined ? [] : [layout.stateDirectory]);
  const snapshot = snapshotControlFiles(before);
  const record = recordProtected(protectedSetOf(before, layout.writeRoots, layout.userGit), layout.writeRoots);
  let drivers: GitDriverNames = gitDriversOf(before);
  let pipelines = 0;
  return {
    beginPipeline: () => {
      if (pipelines++ > 0) drivers = gitDriversOf(scanGitMetadata(layout.writeRoots, layout.stateDirectory === undefined ? [] : [layout.stateDirectory]));
    },
    launch: (command) => {
      const home = mkdtempSync(path.join(tmpdir(), 'zotbox-home-'));
      writeHomeConfig(home);
      return {
        file: command.program,
        args: [...command.args],
        argv0: command.argv0,
        env: commandEnvironment(home, command.assignments, drivers),
        extraFds: [],
        done: (pid) => {
          if (pid !== undefined) killSession(pid);
          rmSync(home, { recursive: true, force: true });
        },
      };
    },
    finish: () => aftercare(layout, before, record, snapshot),
  };
}

export function createCommandIsolation(confinement: Confinement, layout: SandboxLayout): CommandIsolation {
  return {
    confinement,
    beginCall: () => {
      switch (confinement.kind) {
        case 'bubblewrap':
          return bubblewrapCall(confinement.bwrap, layout);
        case 'unconfined':
          return unconfinedCall(layout);
        case 'unavailable':
          throw confinementUnavailable(confinement.reason);
      }
    },
  };
}
