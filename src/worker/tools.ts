// The tools offered to the model. Each maps to one gate call; bash is offered
// only when the agent's bash mode is not none.
import type { ToolSpec } from '../policy/model-protocol.js';

const READ: ToolSpec = {
  name: 'read',
  description: 'Read a text file. Returns numbered lines; use offset (lines to skip) and limit (lines to return) for long files.',
  input_schema: {
    type: 'object',
    properties: { path: { type: 'string' }, offset: { type: 'integer', minimum: 0 }, limit: { type: 'integer', minimum: 1 } },
    required: ['path'],
    additionalProperties: false,
  },
};
const WRITE: ToolSpec = {
  name: 'write',
  description: 'Create or replace a file with the given content. Parent directories are created.',
  input_schema: { type: 'object', properties: { path: { type: 'string' }, content: { type: 'string' } }, required: ['path', 'content'], additionalProperties: false },
};
const EDIT: ToolSpec = {
  name: 'edit',
  description: 'Replace one exact, unique occurrence of old_string in a file with new_string.',
  input_schema: {
    type: 'object',
    properties: { path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } },
    required: ['path', 'old_string', 'new_string'],
    additionalProperties: false,
  },
};
const BASH: ToolSpec = {
  name: 'bash',
  description: 'Run a shell command in the workspace. Only the commands this agent is allowed are accepted; output is captured.',
  input_schema: { type: 'object', properties: { command: { type: 'string' }, timeout_ms: { type: 'integer', minimum: 1 } }, required: ['command'], additionalProperties: false },
};
const SKILL: ToolSpec = {
  name: 'skill',
  description: 'Load the full instructions of one of the skills bundled with this agent, by name.',
  input_schema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false },
};

export function toolsFor(options: { readonly bashAvailable: boolean; readonly hasSkills: boolean }): ToolSpec[] {
  return [READ, WRITE, EDIT, ...(options.bashAvailable ? [BASH] : []), ...(options.hasSkills ? [SKILL] : [])];
}
