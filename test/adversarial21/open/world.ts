// A whole `zotbox run` with replayed tool calls, real bubblewrap and real git, and
// the user's own tools afterwards (review of issue 21, briefed without the tests).
// Each .open.ts file here states by hand what must not happen; on the code it was
// written against, it happens.
import type { ExecutionContext } from 'ava';
import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured, type CliResult } from '../../fixtures/cli-harness.js';
import { tempDir } from '../../fixtures/temp.js';

export const USER_ENV = { GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 'u', GIT_AUTHOR_EMAIL: 'u@x', GIT_COMMITTER_NAME: 'u', GIT_COMMITTER_EMAIL: 'u@x' };

export interface World {
  readonly root: string;
  /** The workspace, a git repository with one commit of `files`. */
  readonly ws: string;
  /** The user's home for their own later tools. */
  readonly home: string;
  /** Where a payload that ran leaves its marker. */
  readonly marker: string;
}

export function world(t: ExecutionContext, files: Readonly<Record<string, string>> = {}): World {
  const root = realpathSync(tempDir(t, 'zb-open21-'));
  const ws = path.join(root, 'ws');
  const home = path.join(root, 'home');
  mkdirSync(ws);
  mkdirSync(home);
  const w = { root, ws, home, marker: path.join(root, 'PWNED') };
  userGit(w, ['init', '-q', '-b', 'main']);
  for (const [name, content] of Object.entries({ 'README.md': 'hello\n', ...files })) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), content, { mode: name.includes('hook') || name.startsWith('.husky/') ? 0o755 : 0o644 });
  }
  userGit(w, ['add', '-A']);
  userGit(w, ['commit', '-qm', 'init']);
  return w;
}

/** The user's own git, later, with their home; throws when it fails. */
export function userGit(w: World, args: readonly string[]): string {
  return execFileSync('git', args, { cwd: w.ws, env: { PATH: '/usr/bin:/bin', HOME: w.home, ...USER_ENV }, encoding: 'utf8' });
}

export type ToolCall = { readonly name: 'bash'; readonly input: { readonly command: string } } | { readonly name: 'write' | 'edit' | 'read'; readonly input: Record<string, string> };

/**
 * Runs an agent that may read and write the workspace, with `allow` as its bash allowlist, through the real CLI:
 * `zotbox run AGENT go --replay FILE -y --cwd WS --no-session`, default confinement.
 */
export async function replay(
  w: World,
  calls: readonly ToolCall[],
  allow: readonly string[] = ['git', 'python3', 'ls', 'cat'],
  options: { readonly args?: readonly string[]; readonly state?: string } = {},
): Promise<CliResult> {
  const agent = path.join(w.root, 'agent');
  mkdirSync(agent, { recursive: true });
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({
      zotfile: 1,
      name: 'tidy-helper',
      version: '0.1.0',
      description: 'Tidies a repository.',
      license: 'MIT',
      runtime: { min_zot: '0.2.0' },
      model: { requires: ['tools'], min_context: 64000 },
      permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow } },
    }),
  );
  writeFileSync(path.join(agent, 'AGENT.md'), 'You tidy repositories.\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    ...calls.map((call, i) => ({ content: [{ type: 'tool_use', id: `t${i}`, name: call.name, input: call.input }], stop: 'tool_use', usage })),
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  const file = path.join(w.root, 'replay.json');
  writeFileSync(file, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  return runCliCaptured(['run', agent, 'go', '--replay', file, '-y', '--cwd', w.ws, '--no-session', ...(options.args ?? [])], {
    env: { ZOTBOX_HOME: options.state ?? path.join(w.root, 'state') },
  });
}
