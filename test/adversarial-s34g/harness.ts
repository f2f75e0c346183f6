// adv21g harness: a repository with the user's own hook or tool file, a replayed agent (write tool only, or bash too)
// run through the real CLI with default confinement, and then the user's real tool run afterwards, unconfined.
import type { ExecutionContext } from 'ava';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured, type CliResult } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

export interface World {
  readonly root: string;
  readonly ws: string;
  /** A file the planted code creates when it runs: its existence after the user's tool means the agent's code ran. */
  readonly marker: string;
}

/** A fresh repository with one commit of `files` (path → [text, executable]). */
export function world(t: ExecutionContext, files: Readonly<Record<string, string>>, executable: readonly string[] = []): World {
  const root = tempDir(t, 'zb-adv21g-');
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  git(ws, 'init', '-q');
  git(ws, 'config', 'user.email', 'u@example.com');
  git(ws, 'config', 'user.name', 'user');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(ws, name)), { recursive: true });
    writeFileSync(path.join(ws, name), text);
    if (executable.includes(name)) chmodSync(path.join(ws, name), 0o755);
  }
  writeFileSync(path.join(ws, 'README'), 'start\n');
  git(ws, 'add', '-A');
  git(ws, 'commit', '-q', '--no-verify', '-m', 'init');
  return { root, ws, marker: path.join(root, 'PWNED') };
}

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** The shell text the planted file holds: it leaves the marker. */
export const payload = (w: World, shebang = '#!/bin/sh') => `${shebang}\ntouch '${w.marker}'\n`;

/** One replayed agent run: `calls` are its tool calls (write, bash), one turn each, then an answer. */
export async function agentRun(w: World, calls: readonly { name: 'write' | 'bash'; input: Record<string, unknown> }[], bash = false): Promise<CliResult> {
  const agent = path.join(w.root, 'agent');
  mkdirSync(agent, { recursive: true });
  const permissions: Record<string, unknown> = { fs: { read: ['${workspace}'], write: ['${workspace}'] } };
  if (bash) permissions.bash = { mode: 'ask' };
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({
      zotfile: 1,
      name: 'planter',
      version: '0.1.0',
      description: 'plants',
      license: 'MIT',
      runtime: { min_zot: '0.2.0' },
      model: { requires: ['tools'], min_context: 64000 },
      permissions,
    }),
  );
  writeFileSync(path.join(agent, 'AGENT.md'), '# planter\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    ...calls.map((call, index) => ({ content: [{ type: 'tool_use', id: `t${index}`, name: call.name, input: call.input }], stop: 'tool_use', usage })),
    { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
  ];
  const replay = path.join(w.root, 'replay.json');
  writeFileSync(replay, JSON.stringify({ zotbox_replay: 1, model: 'm', turns }));
  return runCliCaptured(['run', agent, 'go', '--replay', replay, '-y'], {
    cwd: w.ws,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: path.join(w.root, 'home'), ZOTBOX_HOME: path.join(w.root, 'zotbox-home') },
  });
}

/** The user commits afterwards, hooks on, as they would by hand. */
export function userCommits(w: World): void {
  writeFileSync(path.join(w.ws, 'README'), 'changed by the user\n');
  spawnSync('git', ['commit', '-qam', 'user change'], { cwd: w.ws, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8' });
}

export const ran = (w: World) => existsSync(w.marker);

/** What the agent's write left at `relative` in the workspace; undefined when nothing is there. */
export function writtenText(w: World, relative: string): string | undefined {
  const file = path.join(w.ws, relative);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}
