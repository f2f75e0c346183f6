// Whole runs under the default confinement (issue 9 §1, §3): commands run in the
// sandbox without anyone asking for it, and a command that plants a git
// program stops the run.
import test from 'ava';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runAgent, type RunAgentOptions } from '../../src/host/run/run-agent.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { tempDir } from '../fixtures/temp.js';

const usage = { input_tokens: 1, output_tokens: 1 };

/** An agent with bash in ask mode whose replayed model runs `commands`, one per turn, then answers. */
function agentRunning(t: Parameters<typeof tempDir>[0], commands: string[]): RunAgentOptions & { reference: string; agent?: undefined; cwd: string } {
  const root = realpathSync(tempDir(t, 'zb-confined-run-'));
  const agent = path.join(root, 'agent');
  const ws = path.join(root, 'ws');
  mkdirSync(agent);
  mkdirSync(ws);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'runner', version: '1.0.0', permissions: { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'ask' } } }),
  );
  const transcript = path.join(root, 'run.json');
  writeFileSync(
    transcript,
    JSON.stringify({
      zotbox_replay: 1,
      model: 'replay',
      turns: [
        ...commands.map((command, index) => ({ content: [{ type: 'tool_use', id: `t${index + 1}`, name: 'bash', input: { command } }], stop: 'tool_use', usage })),
        { content: [{ type: 'text', text: 'All done.' }], stop: 'end', usage },
      ],
    }),
  );
  return { reference: agent, cwd: ws, replayFile: transcript, prompt: 'go', yes: true, env: {}, stateDirectory: path.join(root, 'state') };
}

async function collect(options: RunAgentOptions): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of runAgent(options)) events.push(event);
  return events;
}

test('without any option, commands run confined and consent binds it', async (t) => {
  const events = await collect(agentRunning(t, ['grep -c Cap /proc/self/status; cat /etc/shadow']));
  const start = events[0] as RunEvent & { type: 'run.start' };
  t.is(start.permissions.confinement, 'bubblewrap');
  t.regex(start.confinement, /^bubblewrap: /);
  const result = events.find((e) => e.type === 'tool.result') as RunEvent & { type: 'tool.result' };
  t.notRegex(result.summary, /root:/);
  t.like(events.at(-1), { type: 'run.end', status: 'completed' });
});

test('a command that plants a git hook stops the run: the hook is removed and the model is not asked again', async (t) => {
  const options = agentRunning(t, ['mkdir r && cd r && git init -q && printf "#!/bin/sh\\nid\\n" > .git/hooks/pre-commit', 'echo never runs > after.txt']);
  const events = await collect(options);
  t.like(events.at(-1), { type: 'run.end', status: 'failed', error: { code: 'ZB_CONFINEMENT_GIT_PROGRAM' } });
  t.false(existsSync(path.join(options.cwd, 'r', '.git', 'hooks', 'pre-commit')));
  t.false(existsSync(path.join(options.cwd, 'after.txt')), 'the second command never ran');
});
