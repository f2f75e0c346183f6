// The files of the agent `zotbox init` creates, as text: pure, no I/O. The agent
// is the smallest useful one: it reads the workspace, writes nothing, has no
// shell, and bundles one skill, so every part of a zotfile has an example.

/** The one skill the new agent bundles: skills/<SKILL_NAME>/SKILL.md. */
export const SKILL_NAME = 'cite-sources';

export interface TemplateFile {
  /** Relative to the agent directory, with / separators. */
  readonly path: string;
  readonly content: string;
}

/** Written out rather than JSON.stringify'd, so it reads as the examples do; the name is the one value inserted, JSON-quoted. */
function manifest(name: string): string {
  return [
    '{',
    '  "zotfile": 1,',
    `  "name": ${JSON.stringify(name)},`,
    '  "version": "0.1.0",',
    '  "description": "Answers questions about the files in your workspace, without changing anything.",',
    '  "model": { "requires": ["tools"] },',
    '  "permissions": {',
    '    "fs": { "read": ["${workspace}"], "write": [] },',
    '    "bash": { "mode": "none" }',
    '  },',
    '  "entry": {',
    // A greeting and no default_prompt: with no prompt on a terminal, the agent opens a chat (issue 27).
    '    "greeting": "Hi! Ask me about the files in this workspace."',
    '  }',
    '}',
    '',
  ].join('\n');
}

function agentMd(name: string): string {
  return [
    `# ${name}`,
    '',
    "You answer questions about the files in the user's workspace.",
    '',
    '- Read the files you need before you answer; never guess what a file says.',
    '- You can read the workspace but not change it: you have no write access and no shell.',
    `- Load the \`${SKILL_NAME}\` skill before your first answer, and follow it.`,
    '',
  ].join('\n');
}

function skillMd(): string {
  return [
    '---',
    `name: ${SKILL_NAME}`,
    'description: How to answer with sources: the file and line of every fact you report.',
    '---',
    '',
    '# Citing sources',
    '',
    '1. Read each file you rely on with the read tool (use offset and limit for long files).',
    '2. After each fact, say where it came from as `path:line`.',
    '3. If the files do not answer the question, say so instead of guessing.',
    '',
  ].join('\n');
}

/** The files of a new agent named `name`, in the order they are written and reported. */
export function agentTemplate(name: string): readonly TemplateFile[] {
  return [
    { path: 'manifest.json', content: manifest(name) },
    { path: 'AGENT.md', content: agentMd(name) },
    { path: `skills/${SKILL_NAME}/SKILL.md`, content: skillMd() },
  ];
}

/**
 * An agent name made from a directory name, as zot's "safe name" makes one:
 * lowercased, each run of other characters a hyphen, separators trimmed from
 * both ends ("My Agent_2" gives "my-agent_2"). Empty when nothing is left.
 */
export function agentNameFromDirectory(directoryName: string): string {
  return directoryName
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-._]+|[-._]+$/g, '');
}
