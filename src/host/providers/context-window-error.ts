// The one way a provider says the model's context window is full, whether a
// request was refused as too long or a stream stopped at the window: the code,
// the model and its window in tokens, and what to do about it.
import { ZotboxError } from '../../errors.js';

/** ZB_MODEL_CONTEXT_EXCEEDED as the providers report it (a refused request, or a stream that stopped at the window). */
export function contextWindowExceeded(model: string, contextWindow: number, what: string): ZotboxError {
  return new ZotboxError(
    'ZB_MODEL_CONTEXT_EXCEEDED',
    `${model}'s context window (${contextWindow.toLocaleString('en-US')} tokens) is full: ${what}. Fix: ask for smaller steps, read large files in parts (read with offset and limit), or use a model with a larger context window.`,
    { details: { model, contextWindow } },
  );
}
