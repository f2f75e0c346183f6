// The agent loop: ask the model, run the tool calls it makes through the gate,
// hand back the results (a denial is a tool error the model sees, and the run
// continues), until the model answers without tool calls, the turn limit, or
// cancellation.
import { isZotboxError } from '../errors.js';
import type { GateClient } from '../policy/gate-client.js';
import type { ChatMessage, ToolResultBlock, ToolSpec, ToolUseBlock } from '../policy/model-protocol.js';
import type { ModelClient } from './model-client.js';
import { TOOL_NAMES } from './tools.js';

export interface AgentLoopInput {
  readonly system: string;
  /** User turns, each run to its answer before the next is sent; the turn limit covers them all. */
  readonly prompts: readonly string[];
  /** Earlier messages of a continued session; ends with an assistant message (or is empty). */
  readonly history?: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
  readonly maxTurns: number;
  readonly signal?: AbortSignal;
}

export interface AgentLoopResult {
  readonly status: 'completed' | 'max_turns' | 'cancelled';
  readonly finalText: string;
  readonly turns: number;
  readonly messages: readonly ChatMessage[];
}

/** The text the model sees for a tool's outcome. */
function describeResult(result: unknown): string {
  return typeof result === 'string' ? result : JSON.stringify(result, null, 1);
}

async function runTool(gate: Pick<GateClient, 'call'>, call: ToolUseBlock, offered: ReadonlySet<string>): Promise<ToolResultBlock> {
  if (!TOOL_NAMES.has(call.name) || !offered.has(call.name)) {
    return { type: 'tool_result', tool_use_id: call.id, content: `error: there is no tool named ${JSON.stringify(call.name)}`, is_error: true };
  }
  try {
    const result = await gate.call(call.name as 'read', call.input as never);
    return { type: 'tool_result', tool_use_id: call.id, content: describeResult(result), is_error: false };
  } catch (error) {
    const text = isZotboxError(error) ? `${error.code}: ${error.message}` : String(error);
    return { type: 'tool_result', tool_use_id: call.id, content: `error: ${text}`, is_error: true };
  }
}

export async function runAgentLoop(gate: Pick<GateClient, 'call'>, model: Pick<ModelClient, 'complete'>, input: AgentLoopInput): Promise<AgentLoopResult> {
  const messages: ChatMessage[] = [...(input.history ?? [])];
  const pending = [...input.prompts];
  const ask = () => messages.push({ role: 'user', content: [{ type: 'text', text: pending.shift() ?? '' }] });
  ask();
  const offered = new Set(input.tools.map((t) => t.name));
  let finalText = '';
  for (let turn = 1; turn <= input.maxTurns; turn++) {
    if (input.signal?.aborted) return { status: 'cancelled', finalText, turns: turn - 1, messages };
    let answer;
    try {
      answer = await model.complete(input.system, messages, input.tools);
    } catch (error) {
      if (input.signal?.aborted) return { status: 'cancelled', finalText, turns: turn - 1, messages };
      throw error;
    }
    messages.push({ role: 'assistant', content: answer.content });
    finalText = answer.content.filter((b) => b.type === 'text').map((b) => b.text).join('');
    const calls = answer.content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    if (calls.length === 0) {
      if (pending.length === 0) return { status: 'completed', finalText, turns: turn, messages };
      ask();
      continue;
    }
    const results: ToolResultBlock[] = [];
    for (const call of calls) {
      if (input.signal?.aborted) return { status: 'cancelled', finalText, turns: turn, messages };
      results.push(await runTool(gate, call, offered));
    }
    if (input.signal?.aborted) return { status: 'cancelled', finalText, turns: turn, messages };
    messages.push({ role: 'user', content: results });
  }
  return { status: 'max_turns', finalText, turns: input.maxTurns, messages };
}
