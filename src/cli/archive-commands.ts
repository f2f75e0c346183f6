// Handlers for pack, inspect, verify and unpack: call the public API, then print
// text or, with --json, one JSON document (shapes in docs/cli.md). The archive
// entry (extraction, the zstd binding) is imported by the handlers that use it.
import { homedir } from 'node:os';
import path from 'node:path';
import { inspectAgent, packAgent, verifyAgent, type AgentReport, type Manifest, type PackResult } from '../api/agents.js';
import type { UnpackResult } from '../api/archive.js';
import { resolveProgramDirectories, searchPathWith } from '../api/confinement.js';
import { resolveStateDirectory } from '../api/state.js';
import { programPathOf } from './program-path-option.js';
import { ZotboxError } from '../errors.js';
import type { CliIo, CommandHandler, ParsedCommand } from './command-spec.js';
import { field, writeTerminalText } from './terminal-output.js';

const json = (parsed: ParsedCommand) => parsed.values['json'] === true;

function writeJson(io: CliIo, value: unknown): void {
  io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

function signalOption(io: CliIo): { signal?: AbortSignal } {
  return io.signal === undefined ? {} : { signal: io.signal };
}

/** Options for opening an agent reference from the command line. */
function openOptions(io: CliIo) {
  const base = io.env['ZOTBOX_GITHUB_BASE'];
  return { cwd: io.cwd, ...signalOption(io), ...(base === undefined || base === '' ? {} : { githubBaseUrl: base }) };
}

export function packJson(result: PackResult) {
  return {
    ok: true,
    output: result.output,
    name: result.identity.name,
    version: result.identity.version,
    artifact_digest: result.artifactDigest,
    content_digest: result.contentDigest,
    artifact_size: result.artifactSize,
    tar_size: result.tarSize,
    entries: result.entries,
  };
}

export function reportJson(report: AgentReport) {
  return {
    source: report.source,
    format: report.format,
    name: report.name,
    version: report.version,
    description: report.description,
    artifact_digest: report.artifactDigest,
    content_digest: report.contentDigest,
    artifact_size: report.artifactSize,
    expanded_size: report.expandedSize,
    permissions: report.permissions,
    unknown_keys: report.unknownKeys,
    warnings: report.warnings,
    files: report.files,
    skills: report.skills,
    env_read: report.envRead,
    confinement: report.confinement,
    limits: report.limits,
    storage: report.storage,
  };
}

export const runPack: CommandHandler = async (parsed, io) => {
  const [directory, output] = parsed.positionals;
  const result = await packAgent(directory, output, { cwd: io.cwd, ...signalOption(io) });
  if (json(parsed)) writeJson(io, packJson(result));
  else {
    io.stdout.write(
      `wrote ${result.output}\n` +
        `artifact digest  ${result.artifactDigest}\n` +
        `content digest   ${result.contentDigest}\n` +
        `${result.entries} entries, ${result.tarSize} bytes as tar, ${result.artifactSize} bytes packed\n`,
    );
  }
  return 0;
};

const listOrNone = (values: readonly string[]) => (values.length === 0 ? 'none' : values.map(field).join(', '));

/** The declared (unexpanded) permission summary, in the consent prompt's words. */
export function describePermissions(permissions: Manifest['permissions']): string[] {
  const allow = permissions.bash.allow.length > 0 ? ` (${permissions.bash.allow.map(field).join(', ')})` : '';
  return [
    `  fs read: ${listOrNone(permissions.fs.read)}`,
    `  fs write: ${listOrNone(permissions.fs.write)}`,
    `  bash: ${permissions.bash.mode}${allow}`,
    `  net: ${permissions.net.allow.length === 0 ? 'none (no network)' : `${listOrNone(permissions.net.allow)} (through the sandbox's proxy; no port: 80 and 443 only)`}`,
  ];
}

/** A grant that reaches far beyond a workspace (issue 27, item 5): inspect flags it so it never looks ordinary. */
export interface WideGrant {
  readonly permission: 'fs.read' | 'fs.write' | 'bash.mode';
  readonly value: string;
  readonly why: string;
}

/** The root or the home directory as a read or write scope, and bash in ask mode. */
export function wideGrantsOf(permissions: AgentReport['permissions'], home: string): WideGrant[] {
  const wide: WideGrant[] = [];
  const homes = new Set([home.replace(/\/+$/, '')]); // scopes are absolute or ${...} variables: ~ is refused by the manifest
  for (const [permission, scopes] of [
    ['fs.read', permissions.fs.read],
    ['fs.write', permissions.fs.write],
  ] as const) {
    for (const scope of scopes) {
      const trimmed = scope.length > 1 ? scope.replace(/\/+$/, '') : scope;
      if (trimmed === '/')
        wide.push({ permission, value: scope, why: `the whole file system (${permission === 'fs.read' ? 'every file you can read, keys and tokens included' : 'every file you can change'})` });
      else if (homes.has(trimmed))
        wide.push({ permission, value: scope, why: `your whole home directory (${permission === 'fs.read' ? 'keys, tokens and shell history included' : 'your shell start-up files included'})` });
    }
  }
  if (permissions.bash.mode === 'ask') wide.push({ permission: 'bash.mode', value: 'ask', why: 'any command at all, unchecked by the gate (only confinement bounds it)' });
  return wide;
}

function wideGrantLines(report: AgentReport): string[] {
  const wide = wideGrantsOf(report.permissions, homedir());
  if (wide.length === 0) return [];
  return ['', `WIDE GRANTS (${wide.length}): read these before you consent`, ...wide.map((w) => `  ! ${w.permission} ${field(w.value)}: ${w.why}`)];
}

function reportText(report: AgentReport, searchPath: readonly string[]): string {
  const lines = [
    `name:            ${field(report.name)}`,
    `version:         ${field(report.version)}`,
    `description:     ${field(report.description)}`,
    `source:          ${field(report.source.path)} (${report.source.kind === 'github' ? 'GitHub repository archive' : report.format === 'directory' ? 'directory' : `${report.format} archive`})`,
    ...(report.source.kind === 'github' ? [`remote:          ${field(report.source.remote)}`] : []),
    `artifact digest: ${report.artifactDigest ?? 'none (a directory has no artifact)'}`,
    `content digest:  ${report.contentDigest}`,
    '',
    'permissions (as declared):',
    ...describePermissions(report.permissions),
    // Whether each is set where inspect runs; the value is never shown.
    ...(report.envRead.length === 0 ? [] : [`  env read: ${report.envRead.map(({ name, set }) => `${field(name)} (${set ? 'set' : 'not set: absent for commands'})`).join(', ')}`]),
    `  confinement: ${report.confinement}`,
    `  limits: ${report.limits.enforcement}`,
    `  search path: ${searchPath.map(field).join(':')}`,
    ...wideGrantLines(report),
    '',
    `unknown keys:    ${listOrNone(report.unknownKeys)}`,
    ...report.warnings.map((w) => `warning:         ${field(w)}`),
    '',
    ...skillLines(report),
    ...storageLines(report),
    `files (${report.files.filter((f) => f.type === 'file').length}, ${report.expandedSize} bytes):`,
    ...report.files.map((f) => (f.type === 'directory' ? `  ${field(f.path)}/` : `  ${field(f.path)}  ${f.size} B${f.mode === '0755' ? '  (executable)' : ''}`)),
  ];
  return `${lines.join('\n')}\n`;
}

/** Each skill, its file count and its scripts (issue 25): the folder is the model's to read at /zotbox/skills/<name>/. */
function skillLines(report: AgentReport): string[] {
  if (report.skills.length === 0) return [];
  return [
    `skills (${report.skills.length}), each readable by the model at /zotbox/skills/<name>/:`,
    ...report.skills.map(
      (skill) =>
        `  ${field(skill.name)}: ${skill.files} file${skill.files === 1 ? '' : 's'}${skill.scripts.length === 0 ? '' : `, scripts: ${skill.scripts.map(field).join(', ')} (run only as confined commands, with their interpreter allowlisted)`}`,
    ),
    '',
  ];
}

/** Where the agent's data lives (issue 21): its name and source choose the directory. */
function storageLines(report: AgentReport): string[] {
  if (report.storage === null) return [];
  const { storage } = report;
  return [
    `data kept for ${field(report.name)} from ${field(storage.source)}:`,
    `  agent data:    ${field(storage.data)}`,
    `  sessions:      ${field(storage.sessions)}`,
    `  consents:      ${field(storage.consents)}`,
    '',
  ];
}

export const runInspect: CommandHandler = async (parsed, io) => {
  // Only paths are computed: inspect reads nothing in the state directory and creates nothing there.
  const stateDirectory = resolveStateDirectory({ env: io.env, homeDirectory: homedir(), platform: process.platform });
  const report = await inspectAgent(parsed.positionals[0]!, { ...openOptions(io), stateDirectory, env: io.env });
  // The program directories as a run would check them (a write scope is checked at run time, where the workspace is known).
  const searchPath = searchPathWith(resolveProgramDirectories(programPathOf(parsed.values, io.cwd) ?? [], { homeDirectory: homedir(), stateDirectory }));
  if (json(parsed)) {
    const { storage, ...described } = reportJson(report);
    writeJson(io, { ...described, search_path: searchPath, wide_grants: wideGrantsOf(report.permissions, homedir()), storage });
  }
  // Description, version, warnings and file names come from the agent.
  else writeTerminalText(io.stdout, reportText(report, searchPath));
  return 0;
};

export const runVerify: CommandHandler = async (parsed, io) => {
  const expect = parsed.values['expect'];
  const { isDigest } = await import('../api/archive.js');
  if (typeof expect === 'string' && !isDigest(expect)) {
    throw new ZotboxError('ZB_CLI_USAGE', `--expect takes a digest written sha256:<64 lowercase hex digits>, got ${JSON.stringify(expect)}.`);
  }
  const result = await verifyAgent(parsed.positionals[0]!, {
    ...openOptions(io),
    ...(typeof expect === 'string' && isDigest(expect) ? { expect } : {}),
  });
  const { report } = result;
  if (json(parsed)) {
    writeJson(io, {
      ok: true,
      name: report.name,
      version: report.version,
      artifact_digest: report.artifactDigest,
      content_digest: report.contentDigest,
      expect: typeof expect === 'string' ? expect : null,
      matched: result.matched,
      warnings: report.warnings,
    });
  } else {
    writeTerminalText(
      io.stdout,
      `ok  ${field(report.name)}@${field(report.version)}\n` +
        `artifact digest  ${report.artifactDigest ?? 'none (a directory has no artifact)'}\n` +
        `content digest   ${report.contentDigest}\n` +
        (result.matched === null ? '' : `matches --expect (${result.matched} digest)\n`) +
        report.warnings.map((w) => `warning: ${field(w)}\n`).join(''),
    );
  }
  return 0;
};

function unpackJson(result: UnpackResult) {
  return {
    ok: true,
    target: result.target,
    files: result.files,
    directories: result.directories,
    artifact_digest: result.image.artifactDigest ?? null,
    content_digest: result.image.contentDigest,
  };
}

export const runUnpack: CommandHandler = async (parsed, io) => {
  const [file, target] = parsed.positionals as [string, string];
  const { unpackArchiveFile } = await import('../api/archive.js');
  const result = await unpackArchiveFile(path.resolve(io.cwd, file), path.resolve(io.cwd, target), signalOption(io));
  if (json(parsed)) writeJson(io, unpackJson(result));
  else {
    io.stdout.write(
      `unpacked ${result.files} files and ${result.directories} directories into ${result.target}\n` +
        `artifact digest  ${result.image.artifactDigest ?? '(none)'}\ncontent digest   ${result.image.contentDigest}\n`,
    );
  }
  return 0;
};
