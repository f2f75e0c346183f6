// How deep and how large a message on the gate and model ports may be
// (docs/permissions.md, "Message limits"). Checked before any schema, clone or
// JSON.stringify sees the value, by an iterative walk: a 5,000-deep tool input
// used to overflow the stack (issue 10 §6). Must never recurse; pure, no I/O.
import { ZotboxError } from '../errors.js';

/** The write tool's largest content, in UTF-8 bytes; the largest legitimate tool input. */
export const MAX_WRITE_CONTENT_BYTES = 64 * 1024 * 1024;
/** A tool input may nest at most this many arrays and objects, the input object itself included. */
export const MAX_TOOL_INPUT_DEPTH = 64;
/** One tool call, tool result, model turn or session line: the largest write, plus 1 MiB for its path and the rest. */
export const MAX_MESSAGE_BYTES = MAX_WRITE_CONTENT_BYTES + 1024 * 1024;
/** A model request carries the whole conversation, so it may hold several of the largest messages. */
export const MAX_CONVERSATION_BYTES = 4 * MAX_MESSAGE_BYTES;
/** What every value other than a string costs towards the size (numbers, booleans, null, and each array and object). */
const VALUE_BYTES = 8;

export interface MessageLimits {
  /** How many levels of arrays and objects sit above a tool input in this kind of message. */
  readonly envelopeDepth: number;
  readonly maxBytes: number;
}

/** The limits of each kind of message; the envelope depth is where a tool input sits in it. */
export const MESSAGE_LIMITS = {
  /** {type, id, tool, input}; the answer {type, id, ok, result} gets the same room. */
  gate: { envelopeDepth: 1, maxBytes: MAX_MESSAGE_BYTES },
  /** An assistant turn: {content: [{input}]}. */
  modelTurn: { envelopeDepth: 3, maxBytes: MAX_MESSAGE_BYTES },
  /** {type, id, ok, turn: {content: [{input}]}}. */
  modelResponse: { envelopeDepth: 4, maxBytes: MAX_MESSAGE_BYTES },
  /** A session file line: {type, message: {content: [{input}]}}. */
  sessionLine: { envelopeDepth: 4, maxBytes: MAX_MESSAGE_BYTES },
  /** {type, id, system, messages: [{content: [{input}]}], tools}, and every other message the worker sends on the model port. */
  modelRequest: { envelopeDepth: 5, maxBytes: MAX_CONVERSATION_BYTES },
} as const satisfies Record<string, MessageLimits>;

export type LimitViolation = { readonly limit: 'depth'; readonly maxDepth: number; readonly path: readonly (string | number)[] } | { readonly limit: 'size'; readonly maxBytes: number };

interface Frame {
  readonly value: object;
  /** How many arrays and objects enclose this one, itself included. */
  readonly depth: number;
  readonly parent: Frame | undefined;
  readonly key: string | number;
}

/** The first limit `value` breaks, or undefined. Shared references count once per place they appear; a cycle breaks the depth limit. */
export function findLimitViolation(value: unknown, limits: MessageLimits): LimitViolation | undefined {
  const walk = new LimitWalk(limits);
  if (!walk.visit(value, undefined, '')) return { limit: 'size', maxBytes: limits.maxBytes };
  const maxDepth = limits.envelopeDepth + MAX_TOOL_INPUT_DEPTH;
  // Depth first with an explicit stack: the host's own stack never grows with the input.
  for (let frame = walk.stack.pop(); frame !== undefined; frame = walk.stack.pop()) {
    if (frame.depth > maxDepth) return { limit: 'depth', maxDepth, path: pathOf(frame) };
    if (!walk.visitChildren(frame)) return { limit: 'size', maxBytes: limits.maxBytes };
  }
  return undefined;
}

class LimitWalk {
  readonly stack: Frame[] = [];
  private bytes = 0;

  constructor(private readonly limits: MessageLimits) {}

  /** Adds `count` bytes; false once the size limit is passed. */
  private add(count: number): boolean {
    this.bytes += count;
    return this.bytes <= this.limits.maxBytes;
  }

  private addString(text: string): boolean {
    // UTF-8 is never shorter than UTF-16, so an overlong string is refused without measuring it.
    return this.add(text.length > this.limits.maxBytes ? text.length : utf8Length(text));
  }

  /** Counts one value; arrays and objects are queued for later, not entered: no recursion. */
  visit(child: unknown, parent: Frame | undefined, key: string | number): boolean {
    if (typeof child === 'string') return this.addString(child);
    if (typeof child === 'object' && child !== null) this.stack.push({ value: child, depth: (parent?.depth ?? 0) + 1, parent, key });
    return this.add(VALUE_BYTES);
  }

  visitChildren(frame: Frame): boolean {
    const { value } = frame;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) if (!this.visit(value[index], frame, index)) return false;
      return true;
    }
    // Structured clone also carries binary data, maps and sets; they count like the arrays they resemble.
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return this.add(value.byteLength);
    if (value instanceof Map) {
      let index = 0;
      for (const [key, item] of value) if (!this.visit(key, frame, index) || !this.visit(item, frame, index++)) return false;
      return true;
    }
    if (value instanceof Set) {
      let index = 0;
      for (const item of value) if (!this.visit(item, frame, index++)) return false;
      return true;
    }
    for (const key of Object.keys(value)) {
      if (!this.addString(key) || !this.visit((value as Record<string, unknown>)[key], frame, key)) return false;
    }
    return true;
  }
}

/** UTF-8 bytes, as Buffer.byteLength counts them (a lone surrogate as the 3 of U+FFFD). Short strings are counted here: the call into Buffer costs more than the loop. */
function utf8Length(text: string): number {
  if (text.length > 64) return Buffer.byteLength(text, 'utf8');
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) continue;
    if (unit < 0x800) {
      bytes += 1;
      continue;
    }
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // a pair: 2 units, 4 bytes
        index++;
        continue;
      }
    }
    bytes += 2;
  }
  return bytes;
}

/** The keys from the message down to `frame`. */
function pathOf(frame: Frame): (string | number)[] {
  const keys: (string | number)[] = [];
  for (let at = frame; at.parent !== undefined; at = at.parent) keys.push(at.key);
  return keys.reverse();
}

/**
 * The refusal for a message that breaks a limit: ZB_GATE_INVALID_MESSAGE, naming
 * the limit. `what` says which message ("the read call", "the model's turn").
 */
export function limitError(what: string, violation: LimitViolation, envelopeDepth: number): ZotboxError {
  if (violation.limit === 'size') {
    return new ZotboxError(
      'ZB_GATE_INVALID_MESSAGE',
      `${what} is larger than the message size limit of ${violation.maxBytes} bytes (strings count their UTF-8 bytes, every other value ${VALUE_BYTES}). Fix: send less at once; write large files in parts (write, then edit to append).`,
      { details: { limit: 'size', maxBytes: violation.maxBytes } },
    );
  }
  // Name the place by the keys of the envelope ('input', 'content.0.input'): the full path is as deep as the value.
  const shown = violation.path.slice(0, envelopeDepth).join('.');
  return new ZotboxError(
    'ZB_GATE_INVALID_MESSAGE',
    `${what} nests arrays and objects more than ${MAX_TOOL_INPUT_DEPTH} levels deep (at ${shown || 'the top level'}). Fix: send a flatter value; a tool input may nest at most ${MAX_TOOL_INPUT_DEPTH} levels.`,
    { details: { limit: 'depth', maxDepth: MAX_TOOL_INPUT_DEPTH, at: shown } },
  );
}

/** The limit error for `value`, or undefined when it is within `limits`. */
export function checkMessageLimits(value: unknown, limits: MessageLimits, what: string): ZotboxError | undefined {
  const violation = findLimitViolation(value, limits);
  return violation === undefined ? undefined : limitError(what, violation, limits.envelopeDepth);
}
