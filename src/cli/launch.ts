// Starting the zotbox process (bin/zotbox.js): runs the CLI in this process, or,
// only for a command that loads isolated-vm, re-executes Node once with
// --no-node-snapshot. Process-level by design (signals, exit status); it imports
// nothing, so deciding costs nothing; node:child_process loads only to relaunch.

export const NO_NODE_SNAPSHOT = '--no-node-snapshot';

/**
 * Commands that load isolated-vm, which crashes nondeterministically on Node 20
 * when node's startup snapshot is in use (V8's shared read-only heap). None:
 * `eval` runs its JS graders in a grader process of their own, which it starts
 * with the flag (src/host/eval/graders/grader-host.ts), so that a grader that
 * wedges an isolate thread can be killed with its process. Every command starts
 * without the flag: it costs start-up (docs/performance.md).
 */
export const ISOLATED_VM_COMMANDS: readonly string[] = [];

/**
 * Commands that stop cleanly on SIGTERM and SIGHUP, as on Ctrl-C: they cancel runs, check what the command in flight
 * left (the aftercare) and remove their workspaces. A closed terminal or a dropped ssh session sends SIGHUP: ending
 * at once would skip the aftercare of the command in flight (s33d).
 */
export const GRACEFUL_TERM_COMMANDS: readonly string[] = ['run', 'eval'];

export type StopSignalName = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** The reason the launcher aborts with on a signal: commands that end by it exit 128 + its number. */
export class StopSignal extends Error {
  constructor(
    readonly signal: StopSignalName,
    readonly number: number,
  ) {
    super(`stopped by ${signal}`);
    this.name = 'StopSignal';
  }
}

/** The exit status of a command stopped by the launcher's signal (130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP), or undefined. */
export function signalExitStatus(signal: AbortSignal | undefined): number | undefined {
  const reason: unknown = signal?.aborted === true ? signal.reason : undefined;
  return reason instanceof StopSignal ? 128 + reason.number : undefined;
}

/** The command a zotbox command line names: the first token after the global options, if any. */
export function commandOf(argv: readonly string[]): string | undefined {
  for (const token of argv) {
    if (token === '--debug') continue;
    // --help, --version, an unknown option or `--`: no command runs.
    return token.startsWith('-') ? undefined : token;
  }
  return undefined;
}

/** True when Node already runs without its startup snapshot (the flag given directly or in NODE_OPTIONS). */
export function snapshotDisabled(execArgv: readonly string[], nodeOptions: string | undefined): boolean {
  return execArgv.includes(NO_NODE_SNAPSHOT) || (nodeOptions ?? '').split(/\s+/).includes(NO_NODE_SNAPSHOT);
}

export interface LaunchFacts {
  readonly argv: readonly string[];
  readonly execArgv: readonly string[];
  readonly nodeOptions: string | undefined;
  readonly isolatedVmCommands: readonly string[];
}

/** Whether this command line must be re-executed with --no-node-snapshot. */
export function needsRelaunch(facts: LaunchFacts): boolean {
  const command = commandOf(facts.argv);
  return command !== undefined && facts.isolatedVmCommands.includes(command) && !snapshotDisabled(facts.execArgv, facts.nodeOptions);
}

export interface LaunchOptions {
  /** The script to re-execute (bin/zotbox.js). */
  readonly script: string;
  readonly argv: readonly string[];
  /** Defaults to ISOLATED_VM_COMMANDS; tests pass their own list. */
  readonly isolatedVmCommands?: readonly string[];
  /** Runs the command line in this process and returns its exit status. */
  readonly run: (argv: readonly string[], signal: AbortSignal) => Promise<number>;
}

/** Runs the command line here, or in one child Node with the flag, and ends the way it ended. */
export async function launch(options: LaunchOptions): Promise<void> {
  const facts = { argv: options.argv, execArgv: process.execArgv, nodeOptions: process.env['NODE_OPTIONS'], isolatedVmCommands: options.isolatedVmCommands ?? ISOLATED_VM_COMMANDS };
  if (needsRelaunch(facts)) {
    await relaunch(options.script, options.argv);
    return;
  }
  // First Ctrl-C: cancel cleanly (commands stop and remove what they started).
  // Second Ctrl-C: leave at once. SIGTERM and SIGHUP do the same for the commands
  // that run agents (a CI runner stopping a job sends SIGTERM, a closed terminal
  // SIGHUP); any other command still ends at once on them, as Node's default does.
  const controller = new AbortController();
  const cancelOn = (signal: StopSignalName, number: number) =>
    process.on(signal, () => {
      if (controller.signal.aborted) process.exit(128 + number);
      controller.abort(new StopSignal(signal, number));
    });
  cancelOn('SIGINT', 2);
  if (GRACEFUL_TERM_COMMANDS.includes(commandOf(options.argv) ?? '')) {
    cancelOn('SIGTERM', 15);
    cancelOn('SIGHUP', 1);
    // After a hang-up the terminal is gone: writes to it fail (EIO), which must not end the process before its aftercare.
    process.once('SIGHUP', () => {
      for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
    });
  }
  process.exitCode = await options.run(options.argv, controller.signal);
}

async function relaunch(script: string, argv: readonly string[]): Promise<void> {
  const { spawn } = await import('node:child_process');
  // The child shares our terminal and process group, so Ctrl-C reaches it
  // directly. A SIGTERM or SIGHUP sent to this process alone is passed on, so
  // stopping the launcher stops the command; we then mirror how the child ended.
  const child = spawn(process.execPath, [NO_NODE_SNAPSHOT, ...process.execArgv, script, ...argv], { stdio: 'inherit' });
  process.on('SIGINT', () => undefined);
  for (const signal of ['SIGTERM', 'SIGHUP'] as const) process.on(signal, () => child.kill(signal));
  const ended = await new Promise<{ code: number | null; signal: NodeJS.Signals | null } | Error>((resolve) => {
    child.once('error', resolve);
    child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  if (ended instanceof Error) {
    process.stderr.write(`zotbox: could not restart Node.js with ${NO_NODE_SNAPSHOT}: ${ended.message}\n`);
    process.exitCode = 1;
  } else if (ended.signal !== null) {
    // End the same way the child did, so shells see the signal, not a status.
    process.removeAllListeners(ended.signal);
    process.kill(process.pid, ended.signal);
  } else {
    process.exitCode = ended.code ?? 1;
  }
}
