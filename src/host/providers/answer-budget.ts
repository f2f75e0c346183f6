// How much of one streamed answer a decoder may hold: no more than the model
// port takes in one turn (a larger turn would be refused after the stream
// anyway), counted while it streams, so a server that never ends its answer
// cannot grow the host's memory without bound.
import { ZotboxError } from '../../errors.js';
import { MAX_MESSAGE_BYTES } from '../../policy/message-limits.js';

/** Characters of text, tool input and per-block bookkeeping one answer may hold. */
export const MAX_ANSWER_CHARS = MAX_MESSAGE_BYTES;

/** What a content block or tool call costs to keep, beyond its text: its bookkeeping. */
export const PER_PART_CHARS = 64;

export class AnswerBudget {
  private used = 0;
  constructor(private readonly provider: string) {}

  /** Counts `chars` more; throws ZB_PROVIDER_FAILED once the answer passes MAX_ANSWER_CHARS. */
  add(chars: number): void {
    this.used += chars;
    if (this.used <= MAX_ANSWER_CHARS) return;
    throw new ZotboxError(
      'ZB_PROVIDER_FAILED',
      `${this.provider} streamed an answer larger than ${MAX_ANSWER_CHARS} characters, more than one turn may hold; zotbox stopped reading it. Check the server: no model writes an answer this long.`,
      { details: { limitChars: MAX_ANSWER_CHARS } },
    );
  }
}
