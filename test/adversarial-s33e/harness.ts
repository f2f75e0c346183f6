// Shared set-up for the s33e repros: a real git project with a hook the user wrote, a replayed agent that only
// writes one file (write tool, default confinement), then the user's own `git commit`, which runs the hook
// unconfined. The safe outcome: the write is refused, so the hook never runs what the agent wrote (no PWNED file).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ExecutionContext } from 'ava';
import { removeTree, tempDir } from '../fixtures/temp.js';

const ZOTBOX = path.resolve(fileURLToPath(import.meta.url), '../../../../bin/zotbox.js');

/** A git repository holding `files`, committed, with `.git/hooks/pre-commit` = `hook` (the user's own); removed
 * when the test ends, with the direnv home beside it. */
export function projectWithHook(t: ExecutionContext, hook: string, files: Readonly<Record<string, string>> = {}, executables: readonly string[] = []): string {
  const ws = tempDir(t, 'zb-s33e-');
  t.teardown(() => removeTree(direnvHome(ws)));
  const git = (...args: string[]) => execFileSync('git', ['-C', ws, ...args], { stdio: 'pipe' });
  git('init', '-q', '.');
  git('config', 'user.email', 'user@example.com');
  git('config', 'user.name', 'User');
  for (const [name, text] of Object.entries({ 'README.md': 'project\n', ...files })) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), text);
  }
  for (const name of executables) chmodSync(path.join(ws, name), 0o755);
  git('add', '-A');
  git('commit', '-q', '--no-verify', '-m', 'init');
  writeFileSync(path.join(ws, '.git/hooks/pre-commit'), hook);
  chmodSync(path.join(ws, '.git/hooks/pre-commit'), 0o755);
  return ws;
}

/** Runs a replayed agent whose only permission is writing the workspace; it writes `file` with `content`. */
export function agentWrites(ws: string, file: string, content: string): { readonly status: number | null; readonly output: string } {
  return replayedAgent(ws, 'none', { type: 'tool_use', id: 'toolu_1', name: 'write', input: { path: file, content } });
}

/** Runs a replayed agent with the bash tool (ask mode, consented with -y: confined by default) running `command`. */
export function agentRuns(ws: string, command: string): { readonly status: number | null; readonly output: string } {
  return replayedAgent(ws, 'ask', { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command } });
}

/** A throwaway agent (bash mode `bash`, writes the workspace) whose replayed model makes one tool call, run with the real CLI. */
function replayedAgent(ws: string, bash: 'none' | 'ask', call: Readonly<Record<string, unknown>>): { readonly status: number | null; readonly output: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'zb-s33e-agent-'));
  try {
    return replayIn(dir, ws, bash, call);
  } finally {
    removeTree(dir); // spawnSync returned: the CLI that used it has exited.
  }
}

function replayIn(dir: string, ws: string, bash: 'none' | 'ask', call: Readonly<Record<string, unknown>>): { readonly status: number | null; readonly output: string } {
  mkdirSync(path.join(dir, 'agent'));
  writeFileSync(path.join(dir, 'agent/AGENT.md'), '# agent\n\nMakes the one call asked for.\n');
  writeFileSync(
    path.join(dir, 'agent/manifest.json'),
    JSON.stringify({
      zotfile: 1,
      name: bash === 'none' ? 'writer' : 'runner',
      version: '1.0.0',
      description: 'makes one tool call',
      license: 'MIT',
      runtime: { min_zot: '0.2.0' },
      model: { requires: ['tools'], min_context: 32000 },
      permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: bash } },
      entry: { greeting: 'hi', default_prompt: 'go' },
    }),
  );
  const usage = { input_tokens: 10, output_tokens: 10 };
  writeFileSync(
    path.join(dir, 'replay.json'),
    JSON.stringify({
      zotbox_replay: 1,
      model: 'claude-sonnet-4-5',
      turns: [
        { content: [call], stop: 'tool_use', usage },
        { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
      ],
    }),
  );
  const run = spawnSync(process.execPath, [ZOTBOX, 'run', path.join(dir, 'agent'), '--replay', path.join(dir, 'replay.json'), '-y'], { cwd: ws, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** The user's own commit afterwards (hooks on, unconfined): true when the hook ran what the agent wrote (`marker`: where it runs). */
export function userCommitRunsAgentCode(ws: string, marker = 'PWNED'): boolean {
  spawnSync('git', ['-C', ws, 'commit', '-q', '--allow-empty', '-m', 'user commit'], { cwd: ws, stdio: 'pipe' });
  return existsSync(path.join(ws, marker));
}

/** Agent payloads that leave PWNED in the directory they run in (the hook's: the top of the repository). */
export const PAYLOAD = {
  js: "require('node:fs').writeFileSync('PWNED', 'agent code ran');\n",
  py: "open('PWNED', 'w').write('agent code ran')\n",
  pl: "package Evil; open(my $f, '>', 'PWNED'); print $f 'agent code ran'; close $f; 1;\n",
  sh: '#!/bin/sh\necho agent code ran > PWNED\n',
} as const;

/** A git project holding `files` and no hook (for tool files other than git's hooks). */
export function project(t: ExecutionContext, files: Readonly<Record<string, string>>): string {
  return projectWithHook(t, '#!/bin/sh\nexit 0\n', files);
}

/** The user's direnv, with its own state (the user allowed the project's .envrc before the run). */
function direnvEnvironment(ws: string): NodeJS.ProcessEnv {
  const home = direnvHome(ws);
  mkdirSync(home, { recursive: true });
  return { ...process.env, HOME: home, XDG_DATA_HOME: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'config'), XDG_CACHE_HOME: path.join(home, 'cache') };
}

function direnvHome(ws: string): string {
  return path.join(ws, '..', `${path.basename(ws)}-home`);
}

export function direnvAllow(ws: string): void {
  execFileSync('direnv', ['allow', ws], { env: direnvEnvironment(ws), stdio: 'pipe' });
}

/** The user runs `command` in the project through direnv afterwards: true when it ran what the agent wrote. */
export function userRunUnderDirenvRunsAgentCode(ws: string, command: readonly string[]): boolean {
  spawnSync('direnv', ['exec', ws, ...command], { cwd: ws, env: direnvEnvironment(ws), stdio: 'pipe' });
  return existsSync(path.join(ws, 'PWNED'));
}
