// The pool task: what a piscina worker runs for one agent run. It receives the
// run's two ports (gate and model) and plain data (prompt pieces, options), never
// credentials or handles, and returns the loop's result.
import type { MessagePort } from 'node:worker_threads';
import { toZotboxError, type WireError } from '../errors.js';
import { GateClient } from '../policy/gate-client.js';
import type { ChatMessage } from '../policy/model-protocol.js';
import { runAgentLoop, type AgentLoopResult } from './agent-loop.js';
import { ModelClient } from './model-client.js';
import { buildSystemPrompt, type PromptInput } from './prompt.js';
import { toolsFor } from './tools.js';

export interface AgentTask {
  readonly gatePort: MessagePort;
  readonly modelPort: MessagePort;
  readonly prompt: PromptInput;
  /** The user turns to run, in order (entry.pre text first, when it is text). */
  readonly prompts: readonly string[];
  /** The continued session's messages (empty for a new one). */
  readonly history: readonly ChatMessage[];
  /** Interactive: after the scripted prompts, ask the host for the user's next message. */
  readonly interactive: boolean;
  /** Text put before the first user message (entry.pre's command output). */
  readonly preamble?: string;
  readonly maxTurns: number;
  /** The conversation's size limit (JSON characters), from the model's context window. */
  readonly maxConversationChars: number;
  /** The model and its context window in tokens, named when the conversation outgrows it. */
  readonly model: { readonly id: string; readonly contextWindow: number };
  /** Slightly longer than the host's per-call limit, so the host's answer normally wins. */
  readonly toolTimeoutMs: number;
}

/** What the task returns: the loop's result with its error as wire data (a structured-cloned Error would lose its code). */
export interface AgentTaskOutcome {
  readonly status: AgentLoopResult['status'];
  readonly finalText: string;
  readonly turns: number;
  readonly messages: number;
  /** Set when status is failed. */
  readonly error?: WireError;
}

export default async function runAgentTask(task: AgentTask): Promise<AgentTaskOutcome> {
  const gate = new GateClient(task.gatePort, task.toolTimeoutMs);
  const model = new ModelClient(task.modelPort);
  try {
    const result = await runAgentLoop(gate, model, {
      system: buildSystemPrompt(task.prompt),
      prompts: task.prompts,
      history: task.history,
      ...(task.interactive ? { nextInput: () => model.nextInput() } : {}),
      ...(task.preamble === undefined ? {} : { preamble: task.preamble }),
      tools: toolsFor({ bashAvailable: task.prompt.bashAvailable, hasSkills: task.prompt.skills.length > 0 }),
      maxTurns: task.maxTurns,
      maxConversationChars: task.maxConversationChars,
      model: task.model,
      signal: model.signal,
    });
    const outcome = { status: result.status, finalText: result.finalText, turns: result.turns, messages: result.messages.length };
    return result.error === undefined ? outcome : { ...outcome, error: result.error.toWire() };
  } catch (error) {
    // Only a fault outside the loop (building the prompt) reaches here: nothing was completed.
    return { status: 'failed', error: toZotboxError(error).toWire(), finalText: '', turns: 0, messages: 0 };
  } finally {
    gate.close();
    model.close();
    task.gatePort.close();
    task.modelPort.close();
  }
}
