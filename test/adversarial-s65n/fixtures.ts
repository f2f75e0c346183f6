// Review s65n: shared helpers. The user's hook, the agent's rewrite and the user's commit come from s64m's fixtures;
// `agentWritesWith` is s36i's `agentWrites` with more of the user's environment given to zotbox (GIT_CONFIG_*), and
// `agentThenUserCommitWith` runs the user's commit with that environment too.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

export { rewriteHook, userHook, agentThenUserCommit } from '../adversarial-s64m/fixtures.js';

/** s36i's agentWrites without the write (write scope: the workspace; the agent runs each of `command` with `sh`, confined), with `env` added to zotbox's environment. */
export async function agentWritesWith(t: ExecutionContext, ws: string, env: Readonly<Record<string, string>>, command: string | readonly string[]): Promise<string> {
  const commands = typeof command === 'string' ? [command] : command;
  const dir = tempDir(t, 'zb-s65n-agent-');
  const agent = path.join(dir, 'agent');
  mkdirSync(agent);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({
      zotfile: 1,
      name: 'writer',
      version: '1.0.0',
      description: 'writes one file',
      license: 'MIT',
      runtime: { min_zot: '0.2.0' },
      model: { requires: ['tools'], min_context: 32000 },
      permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['sh'] } },
      entry: { greeting: 'g', default_prompt: 'go' },
    }),
  );
  writeFileSync(path.join(agent, 'AGENT.md'), '# writer\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const replay = path.join(dir, 'replay.json');
  writeFileSync(
    replay,
    JSON.stringify({
      zotbox_replay: 1,
      model: 'm',
      turns: [
        ...commands.map((c, i) => ({ content: [{ type: 'tool_use', id: `t${i + 1}`, name: 'bash', input: { command: c } }], stop: 'tool_use', usage })),
        { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
      ],
    }),
  );
  const result = await runCliCaptured(['run', agent, '--cwd', ws, '--replay', replay, '-y'], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, cwd: ws });
  return result.stdout + result.stderr;
}

/** git with the user's environment `env` added. */
export function gitWith(cwd: string, env: Readonly<Record<string, string>>, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=u', '-c', 'user.email=u@example.com', ...args], { cwd, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** The agent's `sh one.sh` (confined) with `env`, then the user's `git commit` with it; true when the agent's hook ran. */
export async function agentThenUserCommitWith(t: ExecutionContext, ws: string, env: Readonly<Record<string, string>>): Promise<boolean> {
  t.log('run:', (await agentWritesWith(t, ws, env, 'sh one.sh')).slice(-1500));
  writeFileSync(path.join(ws, 'src.txt'), 'user change\n');
  try {
    gitWith(ws, env, 'add', 'src.txt');
    gitWith(ws, env, 'commit', '-q', '-m', 'user change');
  } catch (error) {
    t.log('user git failed:', String(error).slice(0, 300));
  }
  return existsSync(path.join(ws, 'PWNED'));
}
