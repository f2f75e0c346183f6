// `zotbox init [DIR]`: writes the agent of init-template.ts into DIR, which must
// not exist or be an empty directory. Never overwrites: every file is created
// exclusively, and on any failure what this command created is removed again.
import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isZotboxError, ZotboxError, fileSystemError } from '../errors.js';
import type { CliIo, CommandHandler } from './command-spec.js';
import { field, writeTerminalText } from './terminal-output.js';
import { agentNameFromDirectory, agentTemplate, type TemplateFile } from './init-template.js';
import { packageDoc } from './package-docs.js';

/** The name from --name, else from the directory's name; checked by the manifest parser itself, so the rule is not copied here. */
async function chooseName(option: unknown, directory: string): Promise<string> {
  const name = typeof option === 'string' ? option : agentNameFromDirectory(path.basename(directory));
  if (name === '') {
    throw new ZotboxError(
      'ZB_OPTION_INVALID',
      `cannot make an agent name from the directory name ${JSON.stringify(path.basename(directory))}. Fix: pass one with --name NAME (lowercase letters, digits, dots, hyphens and underscores, e.g. "code-helper").`,
      { details: { option: 'name', directory } },
    );
  }
  const { parseManifest } = await import('../api/agents.js');
  try {
    parseManifest(Buffer.from(agentTemplate(name)[0]!.content));
  } catch (cause) {
    const details = isZotboxError(cause) ? cause.details : undefined;
    if (details?.['path'] !== '$.name') throw cause;
    const issue = (details['issues'] as readonly { message: string }[] | undefined)?.[0]?.message ?? 'it breaks the name rule';
    const given = typeof option === 'string' ? `--name ${JSON.stringify(name)}` : `the name ${JSON.stringify(name)} made from the directory name`;
    throw new ZotboxError('ZB_OPTION_INVALID', `${given} is not a valid agent name: it ${issue}. Fix: pass a valid one with --name NAME.`, { cause, details: { option: 'name', value: name } });
  }
  return name;
}

/** Creates DIR (and missing parents) or accepts it empty; returns the topmost directory created, to remove on failure. */
function prepareTarget(directory: string): string | undefined {
  let stats;
  try {
    stats = statSync(directory);
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw fileSystemError('use', directory, cause);
    try {
      return mkdirSync(directory, { recursive: true });
    } catch (mkdirCause) {
      throw fileSystemError('create the directory', directory, mkdirCause);
    }
  }
  if (!stats.isDirectory()) throw targetError(directory, `${directory} is not a directory`);
  let entries: string[];
  try {
    entries = readdirSync(directory);
  } catch (cause) {
    throw fileSystemError('list', directory, cause);
  }
  if (entries.length > 0) {
    const shown = entries
      .slice(0, 3)
      .map((e) => JSON.stringify(e))
      .join(', ');
    throw targetError(directory, `${directory} is not empty (it holds ${shown}${entries.length > 3 ? ', ...' : ''}), and init never overwrites anything`);
  }
  return undefined;
}

function targetError(directory: string, fact: string): ZotboxError {
  return new ZotboxError('ZB_INIT_TARGET', `${fact}. Fix: choose a new or empty directory: zotbox init NEW-DIR.`, { details: { path: directory } });
}

/** Writes each file exclusively; on failure removes what this call wrote, and the directory it created. */
function writeTemplate(directory: string, files: readonly TemplateFile[], createdRoot: string | undefined): void {
  const written: string[] = [];
  try {
    for (const file of files) {
      const target = path.join(directory, file.path);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, file.content, { flag: 'wx', mode: 0o644 });
      written.push(target);
    }
  } catch (cause) {
    // Only what this call created goes: the files it wrote, the skills folder, or the whole new directory.
    if (createdRoot !== undefined) rmSync(createdRoot, { recursive: true, force: true });
    else {
      for (const file of written) rmSync(file, { force: true });
      rmSync(path.join(directory, 'skills'), { recursive: true, force: true });
    }
    throw fileSystemError('write the new agent into', directory, cause);
  }
}

/** DIR as the user would type it again: single-quoted when the shell would split or expand it. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

function report(io: CliIo, shownDirectory: string, directory: string, name: string, files: readonly TemplateFile[]): void {
  const lines = [
    `created agent "${name}" in ${field(directory)}:`,
    ...files.map((f) => `  ${f.path}`),
    '',
    'Next: edit AGENT.md and the skill, then check the agent and try it:',
    `  zotbox verify ${field(shellWord(shownDirectory))}`,
    `  zotbox check ${field(shellWord(shownDirectory))} read README.md`,
    `  zotbox run ${field(shellWord(shownDirectory))} "What is in this workspace?"`,
    `  zotbox run ${field(shellWord(shownDirectory))}                (no prompt, on a terminal: a chat)`,
    `${field(packageDoc('agents.md'))} explains each file and the tools the agent gets.`,
  ];
  writeTerminalText(io.stdout, `${lines.join('\n')}\n`);
}

export const runInit: CommandHandler = async (parsed, io) => {
  const given = parsed.positionals[0];
  const directory = path.resolve(io.cwd, given ?? '.');
  const name = await chooseName(parsed.values['name'], directory);
  const files = agentTemplate(name);
  const createdRoot = prepareTarget(directory);
  writeTemplate(directory, files, createdRoot);
  if (parsed.values['json'] === true) io.stdout.write(`${JSON.stringify({ ok: true, directory, name, files: files.map((f) => f.path) }, null, 2)}\n`);
  else report(io, given ?? '.', directory, name, files);
  return 0;
};
