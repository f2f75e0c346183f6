// `zotbox run` output (issue 13, items 2 and 3): every tool call's outcome shown
// once, run failures on stderr as the one-line error, limits that say how to raise
// them, --output-format text|json|stream-json, and the prompt read from stdin.
// Offline: replayed transcripts, the real gate and executors, the CLI in-process.
import test, { type ExecutionContext } from 'ava';
import { existsSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { runCli } from '../../src/cli.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { readSession } from '../../src/host/run/sessions.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { serve } from '../fixtures/model-servers.js';
import { EXAMPLES_DIR } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

const reviewer = path.join(EXAMPLES_DIR, 'code-reviewer');
const sampleWorkspace = path.join(EXAMPLES_DIR, 'workspaces', 'sample-project');
const reviewerTranscript = path.join(EXAMPLES_DIR, 'transcripts', 'code-reviewer.json');
const USAGE = { input_tokens: 1, output_tokens: 1 };

type Turn = { content: unknown[]; stop: string; usage: typeof USAGE };
const toolTurn = (...calls: [string, Record<string, unknown>][]): Turn => ({
  content: calls.map(([name, input], i) => ({ type: 'tool_use', id: `toolu_${i + 1}`, name, input })),
  stop: 'tool_use',
  usage: USAGE,
});
const textTurn = (text: string): Turn => ({ content: [{ type: 'text', text }], stop: 'end', usage: USAGE });

/** A probe agent that may run ls and sleep, a workspace, a state directory, and a transcript of these turns. */
function setUp(t: ExecutionContext, turns: Turn[]) {
  const root = realpathSync(tempDir(t, 'zb-out-'));
  const agent = path.join(root, 'agent');
  const workspace = path.join(root, 'ws');
  mkdirSync(agent);
  mkdirSync(workspace);
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'probe', version: '1.0.0', permissions: { fs: { read: ['${workspace}'], write: [] }, bash: { mode: 'allowlist', allow: ['ls', 'sleep'] } } }),
  );
  writeFileSync(path.join(agent, 'AGENT.md'), 'You probe.');
  writeFileSync(path.join(workspace, 'here.txt'), 'here\n');
  const transcript = path.join(root, 'transcript.json');
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  return { root, agent, workspace, transcript, env: { ZOTBOX_HOME: path.join(root, 'home') } };
}

const lastLine = (text: string) => text.trimEnd().split('\n').at(-1) ?? '';
const USAGE_LINE = /^· \d+ turns? · [\d,]+ tokens in.* · [\d,]+ out · /;

test('text mode shows each tool call as one line with its outcome: ok, failed, denied, a non-zero exit or a signal, never ✔ for the last two', async (t) => {
  const s = setUp(t, [
    toolTurn(
      ['read', { path: 'nope.txt' }],
      ['read', { path: '/etc/passwd' }],
      ['bash', { command: 'ls nope' }],
      ['bash', { command: 'sleep 5', timeout_ms: 200 }],
      ['read', { path: 'here.txt' }],
      ['bash', { command: 'ls' }],
    ),
    textTurn('done'),
  ]);
  const result = await runCliCaptured(['run', s.agent, 'go', '--cwd', s.workspace, '--replay', s.transcript, '-y', '--no-session'], { env: s.env });
  t.is(result.status, 0, result.stderr);
  const toolLines = result.stdout.split('\n').filter((line) => line.startsWith('  ✔') || line.startsWith('  ✘'));
  t.is(toolLines.length, 6, result.stdout);
  t.regex(toolLines[0]!, /^ {2}✘ read nope\.txt — failed: .*nope\.txt/);
  t.regex(toolLines[1]!, /^ {2}✘ read \/etc\/passwd — denied: read denied: /);
  t.regex(toolLines[2]!, /^ {2}✘ bash ls nope → exit 2, 1 line$/);
  t.is(toolLines[3], '  ✘ bash sleep 5 → killed by SIGKILL');
  t.is(toolLines[4], '  ✔ read here.txt (5 B)');
  t.is(toolLines[5], '  ✔ bash ls → exit 0, 1 line', 'ls lists the one file');
  t.false(result.stdout.includes('{"'), 'no raw JSON result');
  t.regex(result.stdout, /\n {2}✔ bash ls → exit 0, 1 line\n\ndone\n/, 'the model text starts on a line of its own, after a blank one');
  t.is(result.stderr, '');
});

test('a failed run: the one-line error with its code on stderr, nothing of it on stdout, and the total line last', async (t) => {
  const s = setUp(t, [toolTurn(['read', { path: 'here.txt' }])]);
  const result = await runCliCaptured(['run', s.agent, 'go', '--cwd', s.workspace, '--replay', s.transcript, '-y', '--no-session'], { env: s.env });
  t.is(result.status, 1);
  t.regex(result.stderr, /^zotbox: error\[ZB_REPLAY_EXHAUSTED\]: [^\n]+\n$/);
  t.notRegex(result.stdout, /ZB_REPLAY_EXHAUSTED|■/);
  t.regex(lastLine(result.stdout), USAGE_LINE);
});

test('a run that failed before its first model turn prints no total line of zeros', async (t) => {
  const s = setUp(t, [textTurn('unused')]);
  // The provider refuses the key: no model turn, no token.
  const server = await serve(t, (_body, _req, res) =>
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'),
  );
  const env = { ...s.env, ANTHROPIC_API_KEY: 'bad', ANTHROPIC_BASE_URL: server.base };
  const result = await runCliCaptured(['run', s.agent, 'go', '--cwd', s.workspace, '--model', 'claude-sonnet-4-5', '-y', '--no-session', '--confine', 'off'], { env });
  t.is(result.status, 1);
  t.regex(result.stderr, /^zotbox: error\[ZB_PROVIDER_\w+\]: [^\n]+\n$/);
  t.false(result.stdout.includes('· 0 turns'), result.stdout);
  t.regex(lastLine(result.stdout), /^▶ probe@1\.0\.0|^ {2}commands: /, 'the start line is all there is');
});

test('--print on a failed run prints no blank line, and the error on stderr', async (t) => {
  const s = setUp(t, [toolTurn(['read', { path: 'here.txt' }])]);
  const result = await runCliCaptured(['run', s.agent, 'go', '--cwd', s.workspace, '--replay', s.transcript, '-y', '--no-session', '--print'], { env: s.env });
  t.is(result.status, 1);
  t.is(result.stdout, '');
  t.regex(result.stderr, /^zotbox: error\[ZB_REPLAY_EXHAUSTED\]: [^\n]+\n$/);
});

test('--max-turns: the error names the limit and how to raise it', async (t) => {
  const args = ['run', reviewer, '--cwd', sampleWorkspace, '--replay', reviewerTranscript, '-y', '--no-session', '--max-turns', '1'];
  const result = await runCliCaptured(args, { env: { ZOTBOX_HOME: tempDir(t) } });
  t.is(result.status, 1);
  t.regex(result.stderr, /^zotbox: error\[ZB_RUN_MAX_TURNS\]: [^\n]*\b1 model turn\b[^\n]*--max-turns N[^\n]*\n$/);
  t.regex(lastLine(result.stdout), USAGE_LINE);
});

test('--output-format json prints one document: status, answer, turns, usage, cost, error and the decisions', async (t) => {
  const args = ['run', reviewer, '--cwd', sampleWorkspace, '--replay', reviewerTranscript, '-y', '--no-session', '--output-format', 'json'];
  const result = await runCliCaptured(args, { env: { ZOTBOX_HOME: tempDir(t) } });
  t.is(result.status, 0, result.stderr);
  t.is(result.stdout.split('\n').length, 2, 'one line and its newline');
  const document = JSON.parse(result.stdout) as Record<string, unknown>;
  t.like(document, {
    type: 'result',
    status: 'completed',
    turns: 3,
    usage: { input_tokens: 1210 + 1650 + 1802, output_tokens: 64 + 31 + 142, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    cost_usd: null,
    error: null,
    decisions: { allowed: 2, denied: 1 },
  });
  t.regex(document['final_text'] as string, /^That file is outside the workspace/);
  t.deepEqual((document['decisions'] as { denied_calls: unknown[] }).denied_calls, [
    {
      id: 3,
      tool: 'read',
      input: { path: '/etc/passwd' },
      code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE',
      reason: `read denied: "/etc/passwd" is outside the read scopes (${realpathSync(sampleWorkspace)}). Fix: ask for a path under one of them, or declare it in permissions.fs.read.`,
    },
  ]);
});

test('--output-format json on a failed run: the document carries the error, and stderr the one-line error', async (t) => {
  const s = setUp(t, [toolTurn(['read', { path: 'here.txt' }])]);
  const result = await runCliCaptured(['run', s.agent, 'go', '--cwd', s.workspace, '--replay', s.transcript, '-y', '--no-session', '--output-format', 'json'], { env: s.env });
  t.is(result.status, 1);
  t.like(JSON.parse(result.stdout), { type: 'result', status: 'failed', turns: 1, error: { code: 'ZB_REPLAY_EXHAUSTED' }, decisions: { allowed: 1, denied: 0, denied_calls: [] } });
  t.regex(result.stderr, /^zotbox: error\[ZB_REPLAY_EXHAUSTED\]/);
});

test('--output-format stream-json is --json: the events as NDJSON, run.end last', async (t) => {
  const base = ['run', reviewer, '--cwd', sampleWorkspace, '--replay', reviewerTranscript, '-y', '--no-session'];
  const types = async (...format: string[]) => {
    const result = await runCliCaptured([...base, ...format], { env: { ZOTBOX_HOME: tempDir(t) } });
    t.is(result.status, 0, result.stderr);
    return result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as RunEvent).type);
  };
  const stream = await types('--output-format', 'stream-json');
  t.is(stream[0], 'run.start');
  t.is(stream.at(-1), 'run.end');
  t.deepEqual(await types('--json'), stream);
  t.deepEqual(await types('--output-format=stream-json', '--json'), stream, 'the alias agrees with the option');
});

test('output formats that disagree, or an unknown one, are usage errors', async (t) => {
  const base = ['run', reviewer, '--replay', reviewerTranscript, '-y', '--no-session'];
  for (const extra of [
    ['--print', '--json'],
    ['--json', '--output-format', 'json'],
    ['--print', '--output-format', 'text'],
    ['--output-format', 'yaml'],
  ]) {
    const result = await runCliCaptured([...base, ...extra], { env: { ZOTBOX_HOME: tempDir(t) } });
    t.is(result.status, 2, extra.join(' '));
    t.regex(result.stderr, /error\[ZB_CLI_USAGE\]/, extra.join(' '));
    t.is(result.stdout, '', extra.join(' '));
  }
});

test('--json: an error before the run is one JSON line with a type, code, message and details', async (t) => {
  const home = tempDir(t);
  for (const format of [['--json'], ['--output-format', 'json'], ['--output-format', 'stream-json']]) {
    const result = await runCliCaptured(['run', path.join(home, 'nope'), 'hi', ...format], { env: { ZOTBOX_HOME: home } });
    t.is(result.status, 1);
    t.is(result.stdout.split('\n').length, 2, `one line: ${result.stdout}`);
    const line = JSON.parse(result.stdout) as Record<string, unknown>;
    t.deepEqual(Object.keys(line), ['type', 'code', 'message', 'details']);
    t.like(line, { type: 'error', code: 'ZB_LOAD_NOT_FOUND', details: { path: path.join(home, 'nope') } });
    t.regex(result.stderr, /^zotbox: error\[ZB_LOAD_NOT_FOUND\]/);
  }
});

/** The first user message recorded in a session file. */
const firstUserMessage = (file: string): unknown => readSession(file).messages.find((m) => m.role === 'user')?.content;

test('the prompt "-" is all of stdin; without "-" a stream that is not a pipe or a file (an embedder\'s) is not read', async (t) => {
  const home = tempDir(t);
  const run = async (stdin: string, ...prompt: string[]) => {
    const session = path.join(tempDir(t), 'session.jsonl');
    const result = await runCliCaptured(['run', reviewer, ...prompt, '--cwd', sampleWorkspace, '--replay', reviewerTranscript, '-y', '--print', '--session', session], {
      env: { ZOTBOX_HOME: home },
      stdin,
    });
    t.is(result.status, 0, result.stderr);
    return JSON.stringify(firstUserMessage(session));
  };
  t.true((await run('Look at parse-port.js only.\nThanks, ünïcode.\n', '-')).includes('Look at parse-port.js only.\\nThanks, ünïcode.\\n'));
  t.true((await run('Ignored.', 'Argument prompt')).includes('Argument prompt'), 'an argument is the prompt; stdin is not read');
  t.true((await run('Not a pipe.')).includes('Review the code in this workspace'), 'no descriptor, no "-": the agent\'s default prompt');
});

test('the prompt "-" with an empty stdin is an error; so is one that is not UTF-8', async (t) => {
  const home = tempDir(t);
  const empty = await runCliCaptured(['run', reviewer, '-', '--replay', reviewerTranscript, '-y', '--no-session'], { env: { ZOTBOX_HOME: home }, stdin: '' });
  t.is(empty.status, 1);
  t.regex(empty.stderr, /^zotbox: error\[ZB_RUN_NO_PROMPT\]: [^\n]*standard input/);
  const binary = await runCliCaptured(['run', reviewer, '-', '--replay', reviewerTranscript, '-y', '--no-session'], { env: { ZOTBOX_HOME: home }, stdin: Buffer.from([0x68, 0xff, 0x69]) });
  t.is(binary.status, 2);
  t.regex(binary.stderr, /^zotbox: error\[ZB_OPTION_INVALID\]: [^\n]*UTF-8/);
  t.is(empty.stdout + binary.stdout, '');
});

test('--record and --session files that cannot be written are refused before consent and before the model', async (t) => {
  const home = tempDir(t);
  const directory = tempDir(t);
  mkdirSync(path.join(directory, 'taken'));
  for (const [flag, file] of [
    ['--record', path.join(directory, 'missing', 'rec.json')],
    ['--record', path.join(directory, 'taken')],
    ['--session', path.join(directory, 'missing', 's.jsonl')],
  ] as const) {
    // No -y and no terminal: reaching consent would fail with ZB_CONSENT_REQUIRED instead.
    const result = await runCliCaptured(['run', reviewer, 'hi', '--replay', reviewerTranscript, flag, file, '--json'], { env: { ZOTBOX_HOME: home } });
    t.is(result.status, 1, `${flag} ${file}`);
    t.like(JSON.parse(result.stdout), { type: 'error', code: 'ZB_IO_FAILED', details: { path: file } });
    t.regex(result.stderr, new RegExp(`^zotbox: error\\[ZB_IO_FAILED\\]: [^\\n]*${flag}[^\\n]*Fix: `));
  }
  t.false(existsSync(path.join(home, 'agents')), 'refused before the agent was even prepared');
  t.false(existsSync(path.join(directory, 'missing')), 'nothing was created to make the path work');
});

test('ZOTBOX_MODEL naming no model is an error that names the variable', async (t) => {
  const result = await runCliCaptured(['run', reviewer, 'hi', '-y', '--no-session'], { env: { ZOTBOX_HOME: tempDir(t), ZOTBOX_MODEL: 'nope', ANTHROPIC_API_KEY: 'k' } });
  t.is(result.status, 1);
  t.regex(result.stderr, /^zotbox: error\[ZB_MODEL_UNAVAILABLE\]: [^\n]*ZOTBOX_MODEL[^\n]*"nope"/);
});

test('a closed standard output (EPIPE) ends the run quietly with status 141', async (t) => {
  let writes = 0;
  const stdout = new Writable({
    write(_chunk, _encoding, callback) {
      writes++;
      callback(writes === 1 ? null : Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    },
  });
  let stderr = '';
  const status = await runCli(['run', reviewer, '--cwd', sampleWorkspace, '--replay', reviewerTranscript, '-y', '--no-session'], {
    stdout,
    stderr: { write: (chunk: string) => (stderr += chunk) },
    stdin: Readable.from([]),
    env: { ZOTBOX_HOME: tempDir(t) },
    cwd: sampleWorkspace,
  });
  t.is(status, 141);
  t.is(stderr, '');
});
