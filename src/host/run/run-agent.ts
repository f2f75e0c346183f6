// runAgent: one agent run, end to end, as the composition of the two steps a
// batch or a long-lived host uses separately: prepareRun (load, requirements,
// model, consent, scopes and confinement; once per agent and workspace) and
// executeRun (a pool slot, a session, the ports and the agent loop; per run).
import type { RunEvent } from './run-events.js';
import { checkRunOutputs, executeRun, type ExecuteRunOptions } from './execute-run.js';
import { prepareRun, type PrepareRunOptions } from './run-plan.js';
import type { LoadedAgent } from '../load/load-agent.js';

/** What to run: a reference to load, or an agent loadAgent already loaded; and how to run it. */
export type RunAgentOptions = Omit<PrepareRunOptions, 'reference' | 'agent'> &
  ExecuteRunOptions &
  ({ readonly reference: string; readonly agent?: undefined } | { readonly agent: LoadedAgent; readonly reference?: undefined });

/**
 * Runs an agent and yields its events. Failures before the run starts (a file
 * it cannot write, loading, requirements, model, consent, no prompt) are thrown; failures during it end
 * with a run.end event of status "failed".
 */
export async function* runAgent(options: RunAgentOptions): AsyncGenerator<RunEvent> {
  // Before loading and consent: a run whose result cannot be kept is refused before anything is asked or spent.
  checkRunOutputs(options);
  const plan = await prepareRun(options);
  yield* executeRun(plan, options);
}
