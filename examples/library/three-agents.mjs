// Embedding zotbox: prepare an agent once (load, checks, consent), then run it
// three times at once on one shared worker pool, each run with its own prompt,
// events and outcome. Offline:
// the runs replay a recorded transcript. For a live model, drop replayFile and
// pass model: 'claude-sonnet-4-5' (the key comes from env, which only the host
// process reads; workers never see it).
//
//   npm run build && node --no-node-snapshot examples/library/three-agents.mjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AgentPool, executeRun, prepareRun } from 'zotbox';

const examples = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const workspace = path.join(examples, 'workspaces', 'sample-project');
const transcript = path.join(examples, 'transcripts', 'code-reviewer.json');

// Prepared once: the image (the exact bytes that were digested), the checks,
// consent (given by the embedding program; see docs/library.md) and the scopes.
const plan = await prepareRun({
  reference: path.join(examples, 'code-reviewer'),
  cwd: workspace,
  replayFile: transcript,
  yes: true,
  env: process.env,
});
// One pool for all runs; many runs share each worker.
const pool = new AgentPool({ maxThreads: 2, maxRuns: 16, maxOldGenerationSizeMb: 256 });
// One signal cancels every run still going (here: after a minute).
const signal = AbortSignal.timeout(60_000);

async function review(label, prompt) {
  const denied = [];
  for await (const event of executeRun(plan, { prompt, session: 'none', pool, signal })) {
    if (event.type === 'gate.decision' && !event.allowed) denied.push(event.canonical_path ?? event.code);
    if (event.type === 'run.end') return { label, status: event.status, turns: event.turns, denied, answer: event.final_text };
  }
  throw new Error(`${label}: the run ended without a run.end event`);
}

try {
  const results = await Promise.all([
    review('correctness', 'Review parse-port.js for correctness.'),
    review('security', 'Review parse-port.js for security problems.'),
    review('style', 'Review parse-port.js for style.'),
  ]);
  for (const result of results) {
    console.log(`${result.label}: ${result.status} after ${result.turns} turns; denied: ${result.denied.join(', ') || 'none'}`);
    console.log(`  ${result.answer.split('\n').find((line) => line.startsWith('1.'))}`);
  }
  process.exitCode = results.every((result) => result.status === 'completed') ? 0 : 1;
} finally {
  await pool.close();
}
