// A run's isolation kept across calls, over a sandbox world (the warm-calls.test.ts harness): each `call` is one
// command in ask mode (bash -c), confined, reusing the run's warm sandbox when its plan allows.
import type { ExecutionContext } from 'ava';
import { executeBash } from '../../src/host/executors/bash.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../src/host/executors/command-environment.js';
import type { CommandIsolation, SandboxProbe } from '../../src/host/executors/confine/command-isolation.js';
import { DEFAULT_COMMAND_LIMITS, detectLimitEnforcement, type LimitSetting } from '../../src/host/executors/confine/command-limits.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { confinedIsolation } from '../fixtures/isolation.js';
import { sandboxWorld, type SandboxWorld } from '../fixtures/sandbox-world.js';

export interface WarmRun {
  readonly world: SandboxWorld;
  readonly isolation: CommandIsolation;
  /** How each command's sandbox was had, in order. */
  readonly used: ('cold' | 'warm' | 'reused')[];
  /** The host pid of each sandbox init the host verified, in order. */
  readonly inits: number[];
  call(command: string, timeoutMs?: number): ReturnType<typeof executeBash>;
}

export function cgroupSetting(lower: Partial<typeof DEFAULT_COMMAND_LIMITS> = {}): LimitSetting {
  const enforcement = detectLimitEnforcement();
  if (enforcement.kind === 'rlimit') throw new Error(`these tests need a usable cgroup: ${enforcement.reason}`);
  return { limits: { ...DEFAULT_COMMAND_LIMITS, ...lower }, enforcement };
}

export function warmRun(t: ExecutionContext, limits: LimitSetting = cgroupSetting(), prepare?: (world: { ws: string; root: string }) => void): WarmRun {
  const world = sandboxWorld(t, prepare);
  const used: WarmRun['used'] = [];
  const inits: number[] = [];
  const probe: SandboxProbe = { sandboxUsed: (how) => used.push(how), beforeVerify: (pid) => inits.push(pid) };
  const isolation = confinedIsolation(world.layout, limits, probe);
  t.teardown(() => isolation.release());
  const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: world.ws, agentData: world.data });
  const shell: ShellContext = { mode: 'ask', allow: [], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
  return {
    world,
    isolation,
    used,
    inits,
    call: (command, timeoutMs = 60_000) => {
      const decision = decideShellCommand(command, shell);
      if (!decision.allow) throw new Error(decision.reason);
      return executeBash(decision, { workspace: world.ws, timeoutMs, outputCapBytes: 65536, isolation, shell });
    },
  };
}
