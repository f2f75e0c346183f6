// Skills are served from the agent image, the exact bytes that were digested
// and consented to, never from disk.
import type { AgentImage } from '../../archive/index.js';
import { ZotboxError } from '../../errors.js';

const SKILL_FILE = /^skills\/([^/]+)\/SKILL\.md$/;

/** Names of the skills an image bundles: skills/<name>/SKILL.md. */
export function listBundledSkills(image: AgentImage): Set<string> {
  const names = new Set<string>();
  for (const entry of image.entries) {
    const match = entry.type === 'file' ? SKILL_FILE.exec(entry.name) : null;
    if (match !== null) names.add(match[1]!);
  }
  return names;
}

export function executeSkill(image: AgentImage, name: string): { name: string; content: string } {
  const content = image.readText(`skills/${name}/SKILL.md`);
  if (content === undefined) {
    throw new ZotboxError('ZB_POLICY_SKILL_UNKNOWN', `skill ${JSON.stringify(name)} is not bundled with this agent.`, { details: { name } });
  }
  return { name, content };
}
