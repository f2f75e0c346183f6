// The here-doc finding through the real CLI: a replayed agent with only the write tool (default confinement) writes
// tools/evil.sh, which the user's pre-commit hook runs after printing a here-doc with an apostrophe; the user's own
// `git commit` then runs it, unconfined.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { tempDir } from '../fixtures/temp.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const zotbox = path.resolve(here, '../../../bin/zotbox.js');

test('a write-only agent cannot leave a file the user’s hook runs behind a here-doc with an apostrophe', (t) => {
  const base = fs.realpathSync(tempDir(t, 'zb-s33f-e2e-'));
  const agent = path.join(base, 'agent');
  const ws = path.join(base, 'ws');
  fs.mkdirSync(agent);
  fs.mkdirSync(path.join(base, 'home'));
  const manifest = {
    zotfile: 1,
    name: 'writer',
    version: '1.0.0',
    description: 'writes files',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 32000 },
    permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'none' } },
    entry: { greeting: 'hi', default_prompt: 'go' },
  };
  fs.writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify(manifest));
  fs.writeFileSync(path.join(agent, 'AGENT.md'), '# Writer\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const content = 'touch "$(git rev-parse --show-toplevel)/RAN"\n';
  const replay = {
    zotbox_replay: 1,
    model: 'claude-sonnet-4-5',
    turns: [
      { content: [{ type: 'tool_use', id: 't1', name: 'write', input: { path: 'tools/evil.sh', content } }], stop: 'tool_use', usage },
      { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
    ],
  };
  fs.writeFileSync(path.join(base, 'replay.json'), JSON.stringify(replay));
  execFileSync('git', ['init', '-q', ws]);
  fs.writeFileSync(path.join(ws, '.git/hooks/pre-commit'), "#!/bin/sh\ncat <<EOF\nDon't commit secrets.\nEOF\nsh tools/evil.sh\n", { mode: 0o755 });
  const env = { ...process.env, HOME: path.join(base, 'home') };
  spawnSync(process.execPath, [zotbox, 'run', agent, '--replay', path.join(base, 'replay.json'), '-y'], { cwd: ws, env, encoding: 'utf8' });
  const git = ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'x'];
  spawnSync('git', git, { cwd: ws, env, stdio: 'ignore' });
  t.false(fs.existsSync(path.join(ws, 'tools/evil.sh')), 'the write tool refuses tools/evil.sh (the hook runs it)');
  t.false(fs.existsSync(path.join(ws, 'RAN')), 'the user’s git commit ran nothing the agent wrote');
});
