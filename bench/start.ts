// npm run bench -- start
// Process start-up (issue 11): the wall time of zotbox commands started as the
// installed bin starts them (its shebang's Node flags), in rounds with `node -e 0`,
// the floor for any Node CLI, as the baseline; the ratio is the median over rounds.
// Also a replayed run's peak RSS, and what --no-node-snapshot costs.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatTable, measureRounds } from './harness.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(repoRoot, 'bin', 'zotbox.js');
const WORKSPACE = path.join(repoRoot, 'examples', 'workspaces', 'sample-project');
const REVIEWER = path.join(repoRoot, 'examples', 'code-reviewer');
const MAINTAINER = path.join(repoRoot, 'examples', 'repo-maintainer');
const TRANSCRIPT = path.join(repoRoot, 'examples', 'transcripts', 'code-reviewer.json');
const NO_NODE_SNAPSHOT = '--no-node-snapshot';

/** The Node flags of a `#!/usr/bin/env [-S] node FLAGS` line: how a shell starts the bin. */
export function shebangFlags(firstLine: string): string[] {
  const match = /^#!\/usr\/bin\/env\s+(?:-S\s+)?node(?:\s+(.*))?$/.exec(firstLine.trim());
  if (match === null) throw new Error(`bin/zotbox.js does not start with a "#!/usr/bin/env node" line: ${firstLine}`);
  return (match[1] ?? '').split(/\s+/).filter((flag) => flag !== '');
}

interface Command {
  readonly name: string;
  readonly args: readonly string[];
  readonly target?: number;
}

function spawnChecked(args: readonly string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(process.execPath, args, { cwd: WORKSPACE, env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status ?? result.signal ?? 'without a status (not started)'}: ${result.stderr.toString()}`);
}

/** Median peak RSS (MiB) of `args` over `runs`, from GNU time; undefined where /usr/bin/time is missing. */
function peakRssMiB(args: readonly string[], env: NodeJS.ProcessEnv, runs: number): number | undefined {
  if (!existsSync('/usr/bin/time')) return undefined;
  const peaks: number[] = [];
  for (let i = 0; i < runs; i++) {
    const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { cwd: WORKSPACE, env, stdio: ['ignore', 'ignore', 'pipe'] });
    const kib = Number(/(\d+)\s*$/.exec(result.stderr.toString())?.[1]);
    if (result.status !== 0 || !Number.isFinite(kib)) throw new Error(`peak RSS of ${args.join(' ')}: ${result.stderr.toString()}`);
    peaks.push(kib / 1024);
  }
  return peaks.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

export async function runStartBench(): Promise<void> {
  const home = mkdtempSync(path.join(tmpdir(), 'zb-bench-start-'));
  // A fresh state directory, consent by environment, and none of the caller's NODE_OPTIONS.
  const { NODE_OPTIONS: _dropped, ...inherited } = process.env;
  const env = { ...inherited, ZOTBOX_HOME: home, ZOTBOX_AGENT_CONSENT: '1' };
  const zotbox = [...shebangFlags(readFileSync(BIN, 'utf8').split('\n', 1)[0]!), BIN];
  const run = ['run', REVIEWER, '--replay', TRANSCRIPT, '--no-session'];
  const commands: Command[] = [
    { name: 'node -e 0 (baseline)', args: ['-e', '0'] },
    { name: 'zotbox --help', args: [...zotbox, '--help'], target: 1.5 },
    { name: 'zotbox --version', args: [...zotbox, '--version'], target: 1.5 },
    { name: 'zotbox check code-reviewer read README.md', args: [...zotbox, 'check', REVIEWER, 'read', 'README.md'], target: 2 },
    { name: 'zotbox check repo-maintainer bash "ls -la | grep js"', args: [...zotbox, 'check', MAINTAINER, 'bash', 'ls -la | grep js'], target: 2 },
    { name: 'zotbox inspect code-reviewer', args: [...zotbox, 'inspect', REVIEWER] },
    { name: 'zotbox run code-reviewer --replay (a whole run)', args: [...zotbox, ...run] },
    { name: `node ${NO_NODE_SNAPSHOT} -e 0`, args: [NO_NODE_SNAPSHOT, '-e', '0'] },
    { name: `node ${NO_NODE_SNAPSHOT} bin/zotbox.js --help`, args: [NO_NODE_SNAPSHOT, BIN, '--help'] },
  ];
  try {
    process.stdout.write(
      `${new Date().toISOString()}, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}, ${availableParallelism()} cores, Node.js ${process.version}; ` + `bin started as: node ${zotbox.map((a) => path.relative(repoRoot, a) || a).join(' ')}\n`,
    );
    const rounds = await measureRounds(
      commands.map((c) => ({ name: c.name, fn: () => spawnChecked(c.args, env) })),
      { warmup: 2, samples: 21 },
    );
    const rows = commands.map((command, index) => {
      const sample = rounds.samples[index]!;
      const ratio = rounds.ratios[index]!;
      const verdict = command.target === undefined ? '' : `≤ ${command.target}× ${ratio <= command.target ? '✔' : '✘'}`;
      return [command.name, sample.medianMs.toFixed(1), sample.p99Ms.toFixed(1), index === 0 ? '1' : `${ratio.toFixed(2)}×`, verdict];
    });
    process.stdout.write(formatTable(['command', 'median ms', 'p99 ms', 'ratio to node -e 0', 'target'], rows));
    const flagCost = rounds.ratios[7]! - 1;
    process.stdout.write(
      `${NO_NODE_SNAPSHOT} adds ${(flagCost * 100).toFixed(0)}% to node -e 0 (${(rounds.samples[7]!.medianMs - rounds.samples[0]!.medianMs).toFixed(1)} ms median); zotbox --help with it: ${rounds.ratios[8]!.toFixed(2)}× node -e 0 against ${rounds.ratios[1]!.toFixed(2)}× without.\n`,
    );
    const peak = peakRssMiB([...zotbox, ...run], env, 5);
    process.stdout.write(peak === undefined ? 'peak RSS of the run: /usr/bin/time not found\n' : `peak RSS of the replayed run (median of 5, GNU time %M): ${peak.toFixed(1)} MiB\n`);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
