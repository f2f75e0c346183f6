// The system prompt (spec B §8.2 with the shape): a concise base prompt
// plus AGENT.md appended, or AGENT.md alone when replace_system_prompt is true;
// then the skill index and the date and workspace footer.

export interface PromptInput {
  readonly agentMd: string;
  readonly replaceSystemPrompt: boolean;
  readonly skills: readonly { readonly name: string; readonly description: string }[];
  /** YYYY-MM-DD */
  readonly date: string;
  readonly workspace: string;
  readonly bashAvailable: boolean;
}

const BASE_PROMPT = [
  'You are an agent run by zotbox. You act only through your tools, and every tool call is checked',
  'against the permissions the user granted this agent. When a call is denied, the result says why:',
  'do not try to get around it; adapt, or tell the user what you needed. Paths are relative to the',
  'workspace unless absolute. Be concise, and finish with a direct answer to the user.',
].join('\n');

export function buildSystemPrompt(input: PromptInput): string {
  const agentText = input.agentMd.trim();
  const parts: string[] = [];
  if (input.replaceSystemPrompt) {
    if (agentText !== '') parts.push(agentText);
  } else {
    parts.push(input.bashAvailable ? BASE_PROMPT : `${BASE_PROMPT}\nThis agent has no shell access.`);
    if (agentText !== '') parts.push(agentText);
  }
  if (input.skills.length > 0) {
    parts.push(['Skills bundled with this agent (load one with the skill tool before you follow it):', ...input.skills.map((s) => `- ${s.name}: ${s.description}`)].join('\n'));
  }
  parts.push(`Current date: ${input.date}\nCurrent working directory: ${input.workspace}`);
  return parts.join('\n\n');
}
