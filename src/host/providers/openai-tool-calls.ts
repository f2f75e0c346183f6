// Assembles streamed Chat Completions tool call deltas into whole tool calls,
// also from servers that omit `index` (Gemini), reuse index 0 for every call
// (Ollama, LiteLLM's Responses bridge) or omit ids (Ollama, llama.cpp). Never
// guesses at a call the stream cut off: it is dropped only under a cut-off stop.
import { ZotboxError } from '../../errors.js';
import { UNPARSED_ARGUMENTS_KEY, type ToolUseBlock } from '../../policy/model-protocol.js';
import type { ToolCallDelta } from './openai-chunks.js';

interface DraftCall {
  serverId: string | undefined;
  name: string;
  args: string;
}

/** The longest server id kept as it is (the neutral protocol's limit); a longer one is replaced. */
const MAX_ID_CHARS = 256;
/** The neutral protocol's limit on tool names. */
/** Names up to the model protocol's limit pass (the gate refuses a tool it does not know, in the events' sight). */
const MAX_NAME_CHARS = 256;

/**
 * Which call a delta continues, in this order:
 * 1. `index` given: the call last opened with that index, unless the delta
 *    carries an id different from that call's id (a server that numbers every
 *    call 0): then a new call.
 * 2. else `id` given (non-empty): the call with that id, or a new one.
 * 3. else: the last call. A delta carrying a name is still a new call when that
 *    name differs from the last call's, or when the last call was already
 *    touched by an earlier entry of the same chunk (separate entries of one
 *    chunk are separate calls).
 * In every case a name differing from the chosen call's name opens a new call
 * (but under the same id it is refused: one call cannot have two names), while
 * the same name again is a repeat ("read" on every chunk is one "read").
 */
export class ToolCallAssembler {
  private readonly calls: DraftCall[] = [];
  private readonly byIndex = new Map<number, DraftCall>();
  private readonly byId = new Map<string, DraftCall>();

  /** The tool_calls of one chunk's delta, in order. */
  add(deltas: readonly ToolCallDelta[]): void {
    const touched = new Set<DraftCall>();
    for (const delta of deltas) {
      if (delta.type !== undefined && delta.type !== null && delta.type !== '' && delta.type !== 'function') throw unreadable(`a tool call of type "${delta.type}" (zotbox offers only functions)`);
      const call = this.callFor(delta, touched);
      touched.add(call);
      const name = nonEmpty(delta.function?.name);
      if (name !== undefined) call.name = name;
      call.args += delta.function?.arguments ?? '';
    }
  }

  private callFor(delta: ToolCallDelta, touched: ReadonlySet<DraftCall>): DraftCall {
    const index = delta.index ?? undefined;
    const id = nonEmpty(delta.id);
    const name = nonEmpty(delta.function?.name);
    const candidate = index !== undefined ? this.byIndex.get(index) : id !== undefined ? this.byId.get(id) : this.calls.at(-1);
    const sameId = id !== undefined && id === candidate?.serverId;
    const renamed = name !== undefined && candidate !== undefined && candidate.name !== '' && name !== candidate.name;
    if (sameId && renamed) throw unreadable(`one tool call (${id}) named both "${candidate.name}" and "${name}"`);
    const continues =
      candidate !== undefined &&
      !(id !== undefined && candidate.serverId !== undefined && !sameId) &&
      !renamed &&
      !(index === undefined && id === undefined && name !== undefined && touched.has(candidate));
    const call = continues ? candidate : this.open();
    if (index !== undefined) this.byIndex.set(index, call);
    if (id !== undefined && call.serverId === undefined) {
      call.serverId = id;
      if (!this.byId.has(id)) this.byId.set(id, call);
    }
    return call;
  }

  private open(): DraftCall {
    const call: DraftCall = { serverId: undefined, name: '', args: '' };
    this.calls.push(call);
    return call;
  }

  /**
   * The finished calls. `cutOff` (a length or content-filter stop): a call
   * without a name or whose arguments are not whole JSON was cut by the stop and
   * is dropped. Otherwise such a call is data the API never sends and fails.
   */
  finish(cutOff: boolean): ToolUseBlock[] {
    const whole: { call: DraftCall; input: Record<string, unknown> }[] = [];
    for (const call of this.calls) {
      const input = cutOff && call.args === '' ? undefined : parseArguments(call.args);
      if (call.name === '' || (cutOff && input === undefined)) {
        if (cutOff) continue;
        throw unreadable('a tool call without a name');
      }
      if (call.name.length > MAX_NAME_CHARS) throw unreadable(`a tool call named "${call.name.slice(0, 80)}…", longer than ${MAX_NAME_CHARS} characters`);
      whole.push({ call, input: isObject(input) ? input : unparsed(call.args) });
    }
    const ids = assignIds(whole.map((w) => w.call.serverId));
    return whole.map(({ call, input }, i) => ({ type: 'tool_use', id: ids[i]!, name: call.name, input }));
  }
}

/**
 * The server's ids where usable (present, at most 256 characters, not already
 * taken in the turn), else call_zb_<n>: unique in the turn, and valid wherever a
 * tool call id goes (^[a-zA-Z0-9_-]{1,40}$, OpenAI's and Anthropic's rules).
 */
function assignIds(serverIds: readonly (string | undefined)[]): string[] {
  const taken = new Set(serverIds.filter((id) => id !== undefined));
  const kept = new Set<string>();
  let next = 0;
  return serverIds.map((id) => {
    if (id !== undefined && id.length <= MAX_ID_CHARS && !kept.has(id)) {
      kept.add(id);
      return id;
    }
    let assigned: string;
    do assigned = `call_zb_${++next}`;
    while (taken.has(assigned));
    taken.add(assigned);
    return assigned;
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A finished call whose arguments are not a JSON object (a Python dict, a
 * string, broken JSON: models do write them): the raw text under
 * UNPARSED_ARGUMENTS_KEY, so the gate refuses the call for its input and the
 * model reads why, instead of the whole run failing.
 */
function unparsed(args: string): Record<string, unknown> {
  return { [UNPARSED_ARGUMENTS_KEY]: args.slice(0, 4096) };
}

/** Empty arguments are an empty object (a function without parameters); undefined when the text is not JSON. */
function parseArguments(args: string): unknown {
  if (args === '') return {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    // Not JSON: the caller decides between "cut off" and "unreadable".
    return undefined;
  }
}

function nonEmpty(value: string | null | undefined): string | undefined {
  return value === null || value === undefined || value === '' ? undefined : value;
}

export function unreadable(what: string): ZotboxError {
  return new ZotboxError(
    'ZB_PROVIDER_FAILED',
    `the model server sent a Chat Completions stream zotbox cannot read: ${what}. Fix: check that the base URL points at an OpenAI-compatible server, or report the server's output.`,
  );
}
