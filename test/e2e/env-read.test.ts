// permissions.env.read end to end (issue 24 §2), confined by the real bubblewrap:
// the agent's commands (a bash call, entry.pre) see exactly the listed variables
// that are set, and nothing else of the user's environment; the values reach no
// event, session, receipt, error or model request that zotbox writes itself
// (a command's own output is the agent's: a value it prints is what it read).
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, readFileSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { type AnthropicRequestBody, anthropicStream, run, serve, type Step } from '../fixtures/model-servers.js';
import { tempDir } from '../fixtures/temp.js';

const API_KEY = 'sk-ant-e2e-key-4b1d9c7e2a';
const TOKEN = 'ghp_e2eSecretToken7Q3xV9';

async function setup(t: ExecutionContext, manifest: object, steps: Step[], env: Record<string, string>) {
  const root = realpathSync(tempDir(t, 'zb-env-read-'));
  const agent = path.join(root, 'agent');
  const ws = path.join(root, 'ws');
  mkdirSync(agent);
  mkdirSync(ws);
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'env-reader', version: '1.0.0', ...manifest }));
  writeFileSync(path.join(agent, 'AGENT.md'), 'You read variables.');
  let count = 0;
  const server = await serve(t, (_body, _req, res) => {
    const step = steps[count] ?? { text: 'done' };
    anthropicStream(res, step, ++count);
  });
  const state = path.join(root, 'state');
  const options = {
    reference: agent,
    cwd: ws,
    prompt: 'Go.',
    yes: true,
    remember: true,
    env: { ANTHROPIC_API_KEY: API_KEY, ANTHROPIC_BASE_URL: server.base, ...env },
    stateDirectory: state,
    model: 'claude-sonnet-4-5',
  };
  return { server, options, state };
}

const end = (events: RunEvent[]) => events.at(-1) as RunEvent & { type: 'run.end' };

/** The text of every tool result the model was sent, in order. */
function toolResults(body: AnthropicRequestBody): string[] {
  return body.messages.flatMap((m) => (m.role === 'user' ? m.content.flatMap((b) => (b.type === 'tool_result' ? [b.content] : [])) : []));
}

/** NAME=value lines of `env` output, as a map (values have no newlines here). */
function parseEnv(text: string): Map<string, string> {
  return new Map(
    text
      .split('\n')
      .filter((line) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(line))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/** Every regular file under a directory, read as text. */
function filesUnder(directory: string): { file: string; text: string }[] {
  return readdirSync(directory, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(directory, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => ({ file, text: readFileSync(file, 'latin1') }));
}

// The names the fixed environment gives every command, and the ones the shell adds, by hand (command-environment.ts, gate-rules §5).
const FIXED = new Set([
  'LANG',
  'TERM',
  'NO_COLOR',
  'PATH',
  'HOME',
  'XDG_CONFIG_HOME',
  'XDG_CACHE_HOME',
  'XDG_DATA_HOME',
  'XDG_STATE_HOME',
  'PAGER',
  'GIT_PAGER',
  'EDITOR',
  'VISUAL',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'GIT_CONFIG_NOSYSTEM',
  'GIT_CONFIG_GLOBAL',
  'GIT_TERMINAL_PROMPT',
  'GIT_OPTIONAL_LOCKS',
  'GIT_ALLOW_PROTOCOL',
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'npm_config_cache',
  'npm_config_logs_dir',
  'npm_config_userconfig',
  'npm_config_globalconfig',
  'npm_config_script_shell',
  'npm_config_git',
  'npm_config_update_notifier',
  'PYTHONDONTWRITEBYTECODE',
  'GIT_CONFIG_COUNT',
  'PWD',
  'OLDPWD',
  'SHLVL',
  '_',
]);
const isFixed = (name: string) => FIXED.has(name) || /^GIT_CONFIG_(KEY|VALUE)_[0-9]+$/.test(name);

test('a confined bash call and entry.pre see exactly the listed variables that are set, with their values, and nothing else of the environment', async (t) => {
  const { server, options } = await setup(
    t,
    {
      permissions: { fs: { read: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['env', 'printenv'] }, env: { read: ['ZB_E2E_TOKEN', 'NODE_ENV', 'ZB_E2E_UNSET'] } },
      entry: { pre: '!printenv ZB_E2E_TOKEN' },
    },
    [{ tool: { name: 'bash', input: { command: 'env' } } }, { text: 'seen' }],
    { ZB_E2E_TOKEN: TOKEN, NODE_ENV: 'production', ZB_NOT_LISTED: 'not-for-the-agent', HOME: '/root', PATH: '/opt/user/bin:/usr/bin', LD_PRELOAD: '/tmp/evil.so' },
  );
  const events = await run(options);
  t.like(end(events), { status: 'completed', final_text: 'seen' });
  t.like(events[0], { type: 'run.start', permissions: { confinement: 'bubblewrap', env: ['ZB_E2E_TOKEN', 'NODE_ENV', 'ZB_E2E_UNSET'] } });
  // entry.pre: printenv printed the value, which the model gets with the first prompt (the command's own output).
  t.regex(JSON.stringify(server.requests[0]!.body.messages[0]), new RegExp(`printed:\\\\n${TOKEN}\\\\n`));
  const result = JSON.parse(toolResults(server.requests[1]!.body).at(-1) ?? '{}') as { exitCode?: number; stdout?: string };
  t.is(result.exitCode, 0);
  const seen = parseEnv(result.stdout ?? '');
  t.true(seen.size > 10, 'env printed the environment');
  t.deepEqual([...seen.keys()].filter((name) => !isFixed(name)).sort(), ['NODE_ENV', 'ZB_E2E_TOKEN']);
  t.is(seen.get('ZB_E2E_TOKEN'), TOKEN);
  t.is(seen.get('NODE_ENV'), 'production');
  t.is(seen.get('HOME'), '/tmp/home');
  t.is(seen.get('PATH'), '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
});

test('the values, one holding the model API key, reach no event, session, receipt or model request when the commands do not print them', async (t) => {
  const keyLike = `prefix-${API_KEY}-suffix`;
  const { server, options, state } = await setup(
    t,
    { permissions: { fs: { read: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['ls', 'true'] }, env: { read: ['ZB_E2E_TOKEN', 'ZB_E2E_KEYLIKE'] } }, entry: { pre: '!true' } },
    [
      { tool: { name: 'bash', input: { command: 'ls' } } },
      { tool: { name: 'bash', input: { command: 'ls no-such-file' } } },
      { tool: { name: 'bash', input: { command: 'curl http://example.com' } } },
      { text: 'listed' },
    ],
    { ZB_E2E_TOKEN: TOKEN, ZB_E2E_KEYLIKE: keyLike },
  );
  const events = await run(options);
  t.like(end(events), { status: 'completed', final_text: 'listed' });
  t.true(
    events.some((e) => e.type === 'tool.result' && e.ok),
    'the commands ran',
  );
  const files = filesUnder(state);
  t.true(
    files.some(({ file }) => file.includes(`${path.sep}sessions${path.sep}`)),
    'a session was written',
  );
  t.true(
    files.some(({ file }) => file.includes(`${path.sep}consents${path.sep}`)),
    'a receipt was written',
  );
  const written = [
    ...files.map(({ file, text }) => [file, text] as const),
    ['events', JSON.stringify(events)] as const,
    ...server.requests.map((request, index) => [`model request ${index}`, JSON.stringify(request.body)] as const),
  ];
  for (const [where, text] of written) {
    for (const secret of [TOKEN, API_KEY, 'ghp_e2e']) t.false(text.includes(secret), `${secret} in ${where}`);
  }
  // The receipt binds the names.
  t.true(files.some(({ file, text }) => file.includes('consents') && text.includes('"ZB_E2E_KEYLIKE"')));
});
