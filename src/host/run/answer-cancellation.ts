// Cancelling one answer of an interactive run, not the run (issue 13, item 1): a
// message from readPrompt may carry a signal of its own. Once it is aborted, until
// the next message: the model call in flight is aborted and every further model
// request of the answer gets a closing turn (the text said so far and a note, from no
// provider); the command in flight is stopped and later tool calls are refused. The
// worker sees an ordinary final answer and asks for the next message. The run's own
// cancellation (run-cancellation.ts) is untouched and always wins.
import { ZotboxError } from '../../errors.js';
import type { GateVerdict } from '../../policy/gate-server.js';
import type { AssistantTurn } from '../../policy/model-protocol.js';
import type { ModelProvider } from '../providers/provider.js';

/** Ends the text of a cancelled answer in the conversation, so the model knows why it stopped (and never sends an empty message). */
export const CANCELLED_ANSWER_NOTE = '[answer cancelled by the user]';

export class AnswerCancellation {
  private current: AbortSignal | undefined;
  private readonly closingTurns = new WeakSet<AssistantTurn>();

  /** A new message was read: its answer can be cancelled with `signal` (undefined: only with the run). */
  begin(signal: AbortSignal | undefined): void {
    this.current = signal;
  }

  /** True for a turn made up here to close a cancelled answer: no model produced it, so it has no usage. */
  isClosingTurn(turn: AssistantTurn): boolean {
    return this.closingTurns.has(turn);
  }

  /** The provider, with model calls stopped by the current answer's signal. */
  provider(inner: ModelProvider): ModelProvider {
    return {
      model: inner.model,
      complete: async (request, onText, runSignal, observer) => {
        const answer = this.current;
        if (answer === undefined) return inner.complete(request, onText, runSignal, observer);
        // Read through a function: the answer may be cancelled while this call waits.
        const cancelled = () => answer.aborted;
        if (cancelled()) return this.closingTurn('');
        let said = '';
        const call = inner.complete(
          request,
          (text) => {
            if (cancelled()) return; // a provider that ignores the signal shows nothing more
            said += text;
            onText(text);
          },
          AbortSignal.any([runSignal, answer]),
          observer,
        );
        try {
          return await untilAborted(call, answer, 'the model call');
        } catch (error) {
          if (!cancelled() || runSignal.aborted) throw error;
          return this.closingTurn(said);
        }
      },
    };
  }

  /** The gate's refusal for a call made after the answer was cancelled; undefined while it goes on. */
  refusal(): GateVerdict | undefined {
    if (this.current?.aborted !== true) return undefined;
    return { allow: false, code: 'ZB_GATE_CANCELLED', reason: 'the answer was cancelled; this call was not run.', audit: {} };
  }

  /** Runs an approved call with `signal` also aborted when the current answer is cancelled, and stops waiting for it then. */
  execute<T>(signal: AbortSignal, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const answer = this.current;
    if (answer === undefined) return run(signal);
    return untilAborted(run(AbortSignal.any([signal, answer])), answer, 'the command');
  }

  private closingTurn(said: string): AssistantTurn {
    const turn: AssistantTurn = {
      content: [{ type: 'text', text: said === '' ? CANCELLED_ANSWER_NOTE : `${said}\n\n${CANCELLED_ANSWER_NOTE}` }],
      stop: 'end',
      usage: { input_tokens: 0, output_tokens: 0 },
    };
    this.closingTurns.add(turn);
    return turn;
  }
}

/** `work`, or ZB_GATE_CANCELLED as soon as `signal` aborts (whatever `work` does after that is ignored). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  const cancelled = () => new ZotboxError('ZB_GATE_CANCELLED', `the answer was cancelled; ${what} was stopped.`);
  if (signal.aborted) {
    work.catch(() => undefined); // stopped already: its outcome has nobody to tell
    return Promise.reject(cancelled());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
