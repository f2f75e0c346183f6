// `zotbox check AGENT TOOL SUBJECT`: prints the gate's answer. Exit 0 when
// allowed, 1 when denied (a denial is an answer, not a failure), 2 on usage.
import { homedir } from 'node:os';
import path from 'node:path';
import { CHECK_TOOLS, checkPermission, type CheckResult, type CheckTool } from '../api/check.js';
import { parseConfineMode } from '../api/confinement.js';
import { requireUsableStateDirectory, resolveStateDirectory, stateDirectoryOrigin } from '../api/state.js';
import { ZotboxError } from '../errors.js';
import type { CliIo, CommandHandler } from './command-spec.js';
import { field, writeTerminalText } from './terminal-output.js';

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}

function planLines(result: CheckResult): string[] {
  if (result.bashMode === 'ask') return ['  runs with bash -c (bash mode "ask": the user consents to any command at launch)'];
  return (result.plan?.items ?? []).flatMap((item) => {
    const steps = item.pipeline.map((step) =>
      step.kind === 'cd'
        ? `cd ${step.directory}`
        : `${Object.entries(step.env)
            .map(([k, v]) => `${k}=${JSON.stringify(v)} `)
            .join('')}${step.program} ${JSON.stringify(step.argv.slice(1))}`,
    );
    // The first item has no connector (null); each later one names the operator before it.
    return [`  ${item.connector === null ? '' : `${item.connector} `}${steps.join(' | ')}`];
  });
}

function text(result: CheckResult): string {
  const lines = result.allowed
    ? [
        `allow ${result.tool}${result.canonicalPath === undefined ? '' : ` ${result.canonicalPath}`}${result.net === undefined ? '' : ` ${field(result.net.host)}:${result.net.port} (net.allow entry ${field(result.net.entry)})`}`,
        ...(result.tool === 'bash' ? planLines(result) : []),
      ]
    : [`deny: ${field(result.reason ?? '')}`, `  code: ${result.code ?? '(none)'}`, ...(result.canonicalPath === undefined ? [] : [`  canonical path: ${field(result.canonicalPath)}`])];
  lines.push(`  agent: ${field(result.agent.name)}@${field(result.agent.version)}, workspace: ${field(result.workspace)}`);
  for (const warning of result.warnings) lines.push(`  warning: ${field(warning)}`);
  return `${lines.join('\n')}\n`;
}

function json(result: CheckResult): unknown {
  return {
    allowed: result.allowed,
    tool: result.tool,
    subject: result.subject,
    code: result.code ?? null,
    reason: result.reason ?? null,
    canonical_path: result.canonicalPath ?? null,
    bash_mode: result.bashMode ?? null,
    commands: result.plan?.items.map((item) => ({ connector: item.connector, pipeline: item.pipeline })) ?? null,
    net: result.net ?? null,
    agent: { name: result.agent.name, version: result.agent.version, content_digest: result.agent.contentDigest },
    workspace: result.workspace,
    warnings: result.warnings,
  };
}

export const runCheck: CommandHandler = async (parsed, io: CliIo) => {
  const [reference, tool, rawSubject] = parsed.positionals as [string, string, string];
  if (!(CHECK_TOOLS as readonly string[]).includes(tool)) {
    throw new ZotboxError('ZB_CLI_USAGE', `unknown tool ${JSON.stringify(tool)}; use one of ${CHECK_TOOLS.join(', ')}. Run 'zotbox check --help' for usage.`);
  }
  // "-" reads the subject verbatim from standard input: no trimming, any byte.
  const subject = rawSubject === '-' ? await readAll(io.stdin) : rawSubject;
  const cwdOption = parsed.values['cwd'];
  const confineWord = parsed.values['confine'];
  const confine = typeof confineWord === 'string' ? parseConfineMode(confineWord) : 'required';
  if (confine === undefined) throw new ZotboxError('ZB_CLI_USAGE', `--confine takes required (the default) or off, got ${JSON.stringify(confineWord)}.`);
  const stateDirectory = resolveStateDirectory({ env: io.env, homeDirectory: homedir(), platform: process.platform });
  requireUsableStateDirectory(stateDirectory, { origin: stateDirectoryOrigin(io.env) });
  const result = await checkPermission(reference, tool as CheckTool, subject, {
    cwd: io.cwd,
    workspace: typeof cwdOption === 'string' ? path.resolve(io.cwd, cwdOption) : io.cwd,
    confine,
    stateDirectory,
    env: io.env,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    ...(io.env['ZOTBOX_GITHUB_BASE'] ? { githubBaseUrl: io.env['ZOTBOX_GITHUB_BASE'] } : {}),
  });
  // The text form quotes the agent's version and the subject as given, which may hold any character.
  if (parsed.values['json'] === true) io.stdout.write(`${JSON.stringify(json(result), null, 2)}\n`);
  else writeTerminalText(io.stdout, text(result));
  return result.allowed ? 0 : 1;
};
