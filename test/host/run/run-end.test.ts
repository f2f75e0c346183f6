// How a run's end is reported (docs/events.md, How a run ends): every status but
// completed carries an error with a code, a limit says which limit and how to
// raise it, and a cancel says why the run was cancelled.
import test from 'ava';
import { ZotboxError } from '../../../src/errors.js';
import { NO_USAGE } from '../../../src/host/models/model-prices.js';
import { endFromOutcome, endFromThrown, type RunStopState } from '../../../src/host/run/run-end.js';
import type { AgentTaskOutcome } from '../../../src/worker/pool-task.js';

const state = (overrides: Partial<RunStopState> = {}): RunStopState => ({
  usage: NO_USAGE,
  costUsd: null,
  fatal: undefined,
  cancelled: undefined,
  inputError: undefined,
  maxTurns: 7,
  closingTurns: 0,
  ...overrides,
});
const outcome = (status: AgentTaskOutcome['status'], finalText = 'last answer'): AgentTaskOutcome => ({ status, finalText, turns: 7, messages: 9 });

test('a completed run carries no error', (t) => {
  const end = endFromOutcome(outcome('completed'), state());
  t.like(end, { status: 'completed', final_text: 'last answer', turns: 7 });
  t.false('error' in end);
});

test('the turns made up to close cancelled answers are not counted: no model answered them', (t) => {
  t.like(endFromOutcome(outcome('completed'), state({ closingTurns: 2 })), { status: 'completed', turns: 5 });
  t.like(endFromOutcome(outcome('failed'), state({ closingTurns: 2, fatal: new ZotboxError('ZB_GATE_CANCELLED', 'x') })), { turns: 5 });
});

test('the turn limit ends the run with ZB_RUN_MAX_TURNS, naming the limit and how to raise it', (t) => {
  const end = endFromOutcome(outcome('max_turns'), state());
  t.like(end, { status: 'max_turns', final_text: 'last answer', error: { code: 'ZB_RUN_MAX_TURNS' } });
  t.regex(end.error!.message, /\b7 model turns\b/);
  t.regex(end.error!.message, /--max-turns N/);
  t.regex(end.error!.message, /maxTurns/);
  t.regex(endFromOutcome(outcome('max_turns'), state({ maxTurns: 1 })).error!.message, /\b1 model turn\b/);
});

test('a refusal and a content filter each carry their own code', (t) => {
  t.like(endFromOutcome(outcome('refused', 'I cannot help with that.'), state()), { status: 'refused', final_text: 'I cannot help with that.', error: { code: 'ZB_MODEL_REFUSED' } });
  t.like(endFromOutcome(outcome('content_filtered'), state()), { status: 'content_filtered', error: { code: 'ZB_MODEL_CONTENT_FILTERED' } });
});

test('a cancelled run carries why it was cancelled: Ctrl-C, or the reason its signal gave (a time limit)', (t) => {
  const ctrlC = new ZotboxError('ZB_GATE_CANCELLED', 'the run was cancelled.');
  const timeout = new ZotboxError('ZB_RUN_TIMEOUT', 'the run reached its 3 s time limit (--timeout 3).');
  t.like(endFromOutcome(outcome('completed'), state({ cancelled: ctrlC })), { status: 'cancelled', error: { code: 'ZB_GATE_CANCELLED' } });
  t.like(endFromOutcome(outcome('max_turns'), state({ cancelled: timeout })), { status: 'cancelled', error: { code: 'ZB_RUN_TIMEOUT', message: timeout.message } });
  t.like(endFromThrown(new Error('stopped'), state({ cancelled: timeout })), { status: 'cancelled', error: { code: 'ZB_RUN_TIMEOUT' } });
  t.like(endFromOutcome(outcome('cancelled'), state()), { status: 'cancelled', error: { code: 'ZB_GATE_CANCELLED' } }, 'a loop that saw the cancel first still says so');
});

test('a fault wins over the cancel it caused', (t) => {
  const fault = new ZotboxError('ZB_CONFINEMENT_GIT_PROGRAM', 'a hook was planted.');
  t.like(endFromOutcome(outcome('completed'), state({ fatal: fault, cancelled: new ZotboxError('ZB_GATE_CANCELLED', 'the run was cancelled.') })), {
    status: 'failed',
    error: { code: 'ZB_CONFINEMENT_GIT_PROGRAM' },
  });
});
