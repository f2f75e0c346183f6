// The system prompt: base prompt then AGENT.md, or AGENT.md alone with
// replace_system_prompt; then the skill index and the date and workspace footer.
// And the tools offered: bash only when the agent may run commands.
import test from 'ava';
import { buildSystemPrompt, type PromptInput } from '../../src/worker/prompt.js';
import { toolsFor } from '../../src/worker/tools.js';

const input: PromptInput = { agentMd: 'You review code.\n', replaceSystemPrompt: false, skills: [], date: '2026-11-30', workspace: '/w', bashAvailable: true };

test('the base prompt comes first, AGENT.md after it, the footer last', (t) => {
  const prompt = buildSystemPrompt(input);
  t.true(prompt.startsWith('You are an agent run by zotbox.'));
  t.true(prompt.indexOf('You review code.') > prompt.indexOf('zotbox'));
  t.true(prompt.endsWith('Current date: 2026-11-30\nCurrent working directory: /w'));
  t.false(prompt.includes('no shell access'));
  t.true(buildSystemPrompt({ ...input, bashAvailable: false }).includes('This agent has no shell access.'));
});

test('replace_system_prompt leaves AGENT.md alone, still with skills and the footer', (t) => {
  const prompt = buildSystemPrompt({ ...input, replaceSystemPrompt: true, skills: [{ name: 'triage', description: 'Sort issues.' }] });
  t.true(prompt.startsWith('You review code.'));
  t.false(prompt.includes('run by zotbox'));
  t.true(prompt.includes('- triage: Sort issues.'));
  t.true(prompt.endsWith('Current working directory: /w'));
});

test('bash is offered only when the bash mode is not none; skill only with bundled skills', (t) => {
  t.deepEqual(
    toolsFor({ bashAvailable: false, hasSkills: false }).map((tool) => tool.name),
    ['read', 'write', 'edit'],
  );
  t.deepEqual(
    toolsFor({ bashAvailable: true, hasSkills: true }).map((tool) => tool.name),
    ['read', 'write', 'edit', 'bash', 'skill'],
  );
});
