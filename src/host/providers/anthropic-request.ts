// The request body of one Anthropic Messages turn, built from the neutral turn
// request (issue 12). It never yields a body the API would refuse from any
// conversation the model protocol allows; checkAnthropicRequestBody proves it on
// every body before it leaves.
import type { ModelTurnRequest } from './provider.js';
import type { ToolSpec } from '../../policy/model-protocol.js';
import { type AnthropicMessage, toAnthropicMessages } from './anthropic-history.js';
import { bodyRuleBroken } from './anthropic-request-check.js';

export { checkAnthropicRequestBody } from './anthropic-request-check.js';

export interface AnthropicRequestOptions {
  readonly model: string;
  readonly maxTokens: number;
}

/** A tool's JSON schema: the API takes only an object schema. */
export interface AnthropicInputSchema {
  type: 'object';
  [keyword: string]: unknown;
}

export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: AnthropicInputSchema;
}

/** Mutable arrays, so the body is assignable to the SDK's MessageCreateParamsStreaming (a test pins it). */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  stream: true;
  system?: string;
  messages: AnthropicMessage[];
  tools?: AnthropicTool[];
}

export function buildAnthropicRequestBody(options: AnthropicRequestOptions, request: ModelTurnRequest): AnthropicRequestBody {
  const tools = request.tools.map(toAnthropicTool);
  return {
    model: options.model,
    max_tokens: options.maxTokens,
    stream: true,
    // The API refuses an empty system prompt; having none is the same request.
    ...(request.system.trim() === '' ? {} : { system: request.system }),
    messages: toAnthropicMessages(request.messages, tools.length > 0),
    ...(tools.length === 0 ? {} : { tools }),
  };
}

function toAnthropicTool(tool: ToolSpec): AnthropicTool {
  const { type, ...keywords } = tool.input_schema;
  // zotbox's own tools declare object schemas; another one is a bug in zotbox, not something to repair here.
  if (type !== 'object') throw bodyRuleBroken('tool-schema-object', `tool ${tool.name}'s input_schema has type ${JSON.stringify(type)}, not "object"`);
  return { name: tool.name, ...(tool.description === '' ? {} : { description: tool.description }), input_schema: { ...keywords, type } };
}
