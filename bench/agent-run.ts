// npm run bench -- run
// Side by side, in one run:
//  - one replayed code-reviewer run through runAgent on a warm shared pool (load,
//    digest, consent by flag, a pool worker, every call through the gate ports,
//    events), against the same work done directly in-process: load, decide each
//    recorded tool call with the same decider, execute the allowed ones. The
//    ratio is what the worker, the ports and the event stream cost.
//  - 16 such runs at once on a pool of 2 workers, against 16 direct runs one
//    after another: throughput in runs per second.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGateDecider } from '../src/policy/gate-decider.js';
import type { ToolCall } from '../src/policy/gate-protocol.js';
import { compileScopes } from '../src/policy/scopes.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../src/host/executors/command-environment.js';
import { createCommandIsolation } from '../src/host/executors/confine/command-isolation.js';
import { resolveConfinement } from '../src/host/executors/confine/mode.js';
import { createExecutor } from '../src/host/executors/execute-approved.js';
import { currentControlLocations } from '../src/host/executors/confine/protected-locations.js';
import { listBundledSkills } from '../src/host/executors/skill.js';
import { openAgent } from '../src/host/load/open-agent.js';
import { AgentPool } from '../src/host/run/pool.js';
import { runAgent } from '../src/host/run/run-agent.js';
import { ensureAgentDirectories } from '../src/host/consent/agent-directory.js';
import { formatTable, measurePair } from './harness.js';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const reviewer = path.join(repoRoot, 'examples', 'code-reviewer');
const workspace = path.join(repoRoot, 'examples', 'workspaces', 'sample-project');
const transcript = path.join(repoRoot, 'examples', 'transcripts', 'code-reviewer.json');

/** The recorded tool calls, in order, as gate calls. */
function recordedCalls(): ToolCall[] {
  const { turns } = JSON.parse(readFileSync(transcript, 'utf8')) as { turns: { content: { type: string; name?: string; input?: unknown }[] }[] };
  let id = 0;
  return turns.flatMap((turn) => turn.content.filter((b) => b.type === 'tool_use').map((b) => ({ type: 'tool.call', id: ++id, tool: b.name, input: b.input }) as ToolCall));
}

export async function runAgentRunBench(): Promise<void> {
  const state = mkdtempSync(path.join(tmpdir(), 'zb-bench-run-'));
  const pool = new AgentPool({ maxThreads: 2 });
  const calls = recordedCalls();
  try {
    const viaZotbox = async () => {
      for await (const event of runAgent({ reference: reviewer, cwd: workspace, replayFile: transcript, yes: true, env: {}, stateDirectory: state, confine: 'off', session: 'none', pool })) {
        if (event.type === 'run.end' && event.status !== 'completed') throw new Error(`bench run ended ${event.status}`);
      }
    };
    const direct = async () => {
      const { image, layout, sourceIdentity } = await openAgent(reviewer, { cwd: workspace });
      const { data } = ensureAgentDirectories(state, { name: layout.manifest.name, source: sourceIdentity });
      const scopes = compileScopes(layout.manifest.permissions.fs, { workspace, agentData: data });
      const shell = {
        mode: layout.manifest.permissions.bash.mode,
        allow: layout.manifest.permissions.bash.allow,
        scopes,
        searchPath: COMMAND_SEARCH_PATH,
        trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES,
      };
      // What a run asks of the user's git configuration at every write decision and effect (a home of the bench's own).
      const controls = () =>
        currentControlLocations(
          scopes.write.map((s) => s.root),
          [state],
          { home: path.join(state, 'home'), noSystem: true },
        );
      const decide = createGateDecider({ shell, skills: listBundledSkills(image), controls });
      const isolation = createCommandIsolation(resolveConfinement('required'), { readRoots: scopes.read.map((s) => s.root), writeRoots: scopes.write.map((s) => s.root) });
      const execute = createExecutor({
        image,
        workspace,
        bashTimeoutMs: 120_000,
        outputCapBytes: 64 * 1024,
        writeRoots: scopes.write.map((s) => s.root),
        shell,
        controls,
        isolation,
      });
      try {
        for (const call of calls) {
          const verdict = decide(call);
          if (verdict.allow) await execute(verdict.approved, new AbortController().signal);
        }
      } finally {
        await isolation.release(); // the run's end, as a run's holdImage release does
      }
    };
    const single = await measurePair({ name: 'zotbox', fn: viaZotbox }, { name: 'direct', fn: direct }, { warmup: 5, samples: 31 });
    const many = 16;
    const concurrent = await measurePair(
      { name: 'zotbox', fn: () => Promise.all(Array.from({ length: many }, viaZotbox)) },
      {
        name: 'direct',
        fn: async () => {
          for (let i = 0; i < many; i++) await direct();
        },
      },
      { warmup: 2, samples: 9 },
    );
    const rows = [
      ['one run (median ms)', single.a.medianMs.toFixed(2), 'load + decide + execute in-process', single.b.medianMs.toFixed(2), `${(1 / single.speedup).toFixed(2)}×`],
      [
        `${many} runs at once, pool of 2 (runs/s)`,
        (many / (concurrent.a.medianMs / 1000)).toFixed(0),
        `${many} direct, one after another`,
        (many / (concurrent.b.medianMs / 1000)).toFixed(0),
        `${(1 / concurrent.speedup).toFixed(2)}× time`,
      ],
    ];
    process.stdout.write(formatTable(['measure', 'zotbox', 'baseline', 'baseline value', 'ratio'], rows));
  } finally {
    await pool.close();
    rmSync(state, { recursive: true, force: true });
  }
}
