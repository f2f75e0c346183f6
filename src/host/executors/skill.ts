// Skills are served from the agent image, the exact bytes that were digested
// and consented to, never from disk. A skill's result also says where its folder
// is (/zotbox/skills/<name>/, read-only) and which files it holds, so the model
// can read the references and run the scripts its SKILL.md names.
import type { AgentImage } from '../../archive/index.js';
import { ZotboxError } from '../../errors.js';
import { skillFiles } from './image-files.js';

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

/** Most file names a skill result lists; the rest are counted, and reachable all the same. */
export const MAX_LISTED_SKILL_FILES = 500;

export interface SkillResult {
  readonly name: string;
  readonly content: string;
  /** Where the skill's folder is, read-only, for the read tool and (in the sandbox) for commands. */
  readonly directory: string;
  /** Its files, relative to `directory`. */
  readonly files: readonly string[];
  /** How many files were left out of `files` (0 when none). */
  readonly filesNotListed: number;
}

export function executeSkill(image: AgentImage, name: string): SkillResult {
  const content = image.readText(`skills/${name}/SKILL.md`);
  if (content === undefined) {
    throw new ZotboxError('ZB_POLICY_SKILL_UNKNOWN', `skill ${JSON.stringify(name)} is not bundled with this agent.`, { details: { name } });
  }
  const files = skillFiles(image, name);
  return { name, content, directory: `/zotbox/skills/${name}/`, files: files.slice(0, MAX_LISTED_SKILL_FILES), filesNotListed: Math.max(0, files.length - MAX_LISTED_SKILL_FILES) };
}
