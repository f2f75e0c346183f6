// The contract between a wire format (Anthropic Messages, OpenAI Chat
// Completions) and the streaming driver that talks to the server. A decoder only
// folds server-sent events into one assistant turn; it never does I/O, never
// retries, and never guesses at data the stream did not finish.
import type { AssistantTurn } from '../../policy/model-protocol.js';
import type { ServerSentEvent } from './sse.js';

export interface StreamDecoder {
  /**
   * Takes one event and passes text deltas to the decoder's onText as they
   * arrive. Unknown event types and unknown fields are ignored; data the API
   * never sends (a field of the wrong type, a delta for a block never started)
   * and error events throw a ZotboxError. An error event the server may well
   * not repeat (overloaded, a server error) carries details.retryable = true.
   */
  push(event: ServerSentEvent): void;
  /** The stream said it is over ([DONE], message_stop): the driver decodes no more (it reads a body that has ended to its end). */
  readonly complete: boolean;
  /** Output has begun (text, a tool call or any content block): a fault from now on cannot be retried. */
  readonly started: boolean;
  /**
   * The body ended (or `complete` became true): the turn, or a ZotboxError when
   * the stream stopped where the API never stops (no finish reason, no
   * message_stop, a tool call cut off without a max-tokens stop). A stop reason
   * that is a failure (context window exhausted) throws its own code.
   */
  finish(): AssistantTurn;
  /** The text received so far: kept when the stream breaks after output began. */
  readonly partialText: string;
  /**
   * Events that carried some of the answer (text, tool input, thinking or
   * reasoning, a stop, usage), counted: keep-alives (pings, empty deltas) do not
   * count, so the driver's idle limit measures silence of the answer, not of the socket.
   */
  readonly progress: number;
}
