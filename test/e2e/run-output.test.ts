// Whole runs whose output is cut short or limited (issue 13): a reader that
// closes the pipe early (a real pipe, as `| head -1`), a time limit, Ctrl-C, and a
// --record file that became unwritable during the run.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { runCli } from '../../src/cli.js';
import { runAgent } from '../../src/host/run/run-agent.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { readSession } from '../../src/host/run/sessions.js';
import { holdModelServer, type HeldModelServer } from '../fixtures/held-model-server.js';
import { agentFixture } from '../fixtures/model-servers.js';
import { BIN, EXAMPLES_DIR } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

const reviewer = path.join(EXAMPLES_DIR, 'code-reviewer');

/** A transcript whose answer is far larger than a pipe's buffer, so writing it outlasts a reader that stops after one line. */
function longAnswerTranscript(directory: string): string {
  const file = path.join(directory, 'long.json');
  const text = `${'All good. '.repeat(9)}\n`.repeat(20_000);
  writeFileSync(file, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns: [{ content: [{ type: 'text', text }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } }] }));
  return file;
}

for (const format of [[], ['--json']]) {
  test(`zotbox run ${format.join(' ')} | head -1: the closed pipe ends the run quietly with status 141`, (t) => {
    const directory = tempDir(t);
    const transcript = longAnswerTranscript(directory);
    const words = [process.execPath, BIN, 'run', reviewer, 'hi', '--replay', transcript, '-y', '--no-session', ...format].map((w) => `'${w}'`).join(' ');
    const { NODE_OPTIONS: _dropped, ...env } = process.env;
    const result = spawnSync('bash', ['-c', `${words} 2>"$ERRORS" | head -1; echo "\${PIPESTATUS[0]}"`], {
      encoding: 'utf8',
      env: { ...env, ZOTBOX_HOME: path.join(directory, 'home'), ERRORS: path.join(directory, 'stderr.txt') },
      timeout: 60_000,
    });
    const [first, status] = result.stdout.split('\n');
    t.regex(first ?? '', format.length === 0 ? /^▶ code-reviewer@1\.0\.0/ : /^\{"type":"run\.start"/);
    t.is(status, '141', result.stderr);
    t.is(spawnSync('cat', [path.join(directory, 'stderr.txt')], { encoding: 'utf8' }).stdout, '', 'nothing on stderr: no EPIPE trace, no error line');
  });
}

test('without a PROMPT, a piped stdin or a redirected file is the prompt; /dev/null leaves the default prompt', (t) => {
  const directory = tempDir(t);
  writeFileSync(path.join(directory, 'request.txt'), 'Prompt from a file.\n');
  const bin = [process.execPath, BIN, 'run', reviewer, '--cwd', path.join(EXAMPLES_DIR, 'workspaces', 'sample-project')];
  const words = [...bin, '--replay', path.join(EXAMPLES_DIR, 'transcripts', 'code-reviewer.json'), '-y', '--print'].map((w) => `'${w}'`).join(' ');
  const { NODE_OPTIONS: _dropped, ...env } = process.env;
  let runs = 0;
  const promptOf = (shell: string) => {
    const session = path.join(directory, `session-${++runs}.jsonl`);
    const result = spawnSync('bash', ['-c', shell.replace('ZOTBOX', `${words} --session '${session}'`)], {
      encoding: 'utf8',
      env: { ...env, ZOTBOX_HOME: path.join(directory, 'home') },
      timeout: 60_000,
    });
    t.is(result.status, 0, result.stderr);
    return JSON.stringify(readSession(session).messages.find((m) => m.role === 'user')?.content);
  };
  t.true(promptOf("printf 'Piped prompt.' | ZOTBOX").includes('Piped prompt.'));
  t.true(promptOf(`ZOTBOX < '${path.join(directory, 'request.txt')}'`).includes('Prompt from a file.\\n'));
  t.true(promptOf('ZOTBOX < /dev/null').includes('Review the code in this workspace'));
  t.true(promptOf("printf '' | ZOTBOX").includes('Review the code in this workspace'), "an empty pipe: the agent's default prompt");
});

test('--timeout: the run ends with ZB_RUN_TIMEOUT, naming the limit and how to raise it; Ctrl-C stays ZB_GATE_CANCELLED', async (t) => {
  const { agent, ws, state } = agentFixture(t);
  const base = ['run', agent, 'hi', '--cwd', ws, '--model', 'claude-sonnet-4-5', '-y', '--no-session'];
  // A model server that never answers: only the time limit or a cancel ends the run.
  const run = async (server: HeldModelServer, extra: string[], signal?: AbortSignal) => {
    const env = { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.base, ZOTBOX_HOME: state };
    let stdout = '';
    let stderr = '';
    const status = await runCli([...base, ...extra], {
      stdout: { write: (chunk: string) => (stdout += chunk) },
      stderr: { write: (chunk: string) => (stderr += chunk) },
      stdin: Readable.from([]),
      env,
      cwd: ws,
      ...(signal === undefined ? {} : { signal }),
    });
    return { status, stdout, stderr };
  };
  const timedOut = await run(await holdModelServer(t), ['--timeout', '1']);
  t.is(timedOut.status, 1);
  t.regex(timedOut.stderr, /^zotbox: error\[ZB_RUN_TIMEOUT\]: [^\n]*\b1 s\b[^\n]*--timeout N[^\n]*\n$/);

  const server = await holdModelServer(t);
  const controller = new AbortController();
  void server.request(0).then(() => controller.abort());
  const interrupted = await run(server, ['--timeout', '600'], controller.signal);
  t.is(interrupted.status, 1);
  t.regex(interrupted.stderr, /^zotbox: error\[ZB_GATE_CANCELLED\]: the run was cancelled/);
});

test('a --record file that can no longer be written when the run ends: the run fails with ZB_IO_FAILED and keeps its answer', async (t) => {
  const directory = tempDir(t);
  const recordings = path.join(directory, 'recordings');
  mkdirSync(recordings);
  const events: RunEvent[] = [];
  for await (const event of runAgent({
    reference: reviewer,
    cwd: path.join(EXAMPLES_DIR, 'workspaces', 'sample-project'),
    replayFile: path.join(EXAMPLES_DIR, 'transcripts', 'code-reviewer.json'),
    recordFile: path.join(recordings, 'run.json'),
    session: 'none',
    yes: true,
    stateDirectory: path.join(directory, 'state'),
  })) {
    // The check before the run passed; the directory goes away while the run is under way.
    if (event.type === 'run.start') rmSync(recordings, { recursive: true });
    events.push(event);
  }
  const end = events.at(-1) as RunEvent & { type: 'run.end' };
  t.like(end, { type: 'run.end', status: 'failed', turns: 3, error: { code: 'ZB_IO_FAILED' } });
  t.regex(end.final_text, /^That file is outside the workspace/);
  t.regex(end.error!.message, /run\.json/);
});
