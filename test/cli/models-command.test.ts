// `zotbox models` (issue 27): the catalog with where each entry comes from, the real
// models.json path, an entry added from flags (the /v1 convention checked), and one
// tiny request to a loopback OpenAI-format server reported in words.
import test, { type ExecutionContext } from 'ava';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { openaiStream, serve, type OpenAIRequestBody } from '../fixtures/model-servers.js';
import { tempDir } from '../fixtures/temp.js';

function home(t: ExecutionContext): { state: string; env: Record<string, string> } {
  const state = path.join(realpathSync(tempDir(t, 'zb-models-cli-')), 'state');
  return { state, env: { ZOTBOX_HOME: state } };
}

test('models path prints the real models.json path of the state directory, which need not exist', async (t) => {
  const { state, env } = home(t);
  const result = await runCliCaptured(['models', 'path'], { env });
  t.is(result.status, 0, result.stderr);
  t.is(result.stdout, `${path.join(state, 'models.json')}\n`);
  t.false(existsSync(state), 'path creates nothing');
});

test('models add writes an entry from flags; list shows it with its source and key state, built-ins too', async (t) => {
  const { state, env } = home(t);
  const added = await runCliCaptured(['models', 'add', 'qwen-local', '--provider', 'openai', '--base-url', 'http://127.0.0.1:8080/v1', '--context-window', '32768', '--no-key'], { env });
  t.is(added.status, 0, added.stderr);
  t.true(added.stdout.includes(path.join(state, 'models.json')), added.stdout);
  t.deepEqual(JSON.parse(readFileSync(path.join(state, 'models.json'), 'utf8')), {
    models: [{ id: 'qwen-local', provider: 'openai', base_url: 'http://127.0.0.1:8080/v1', context_window: 32768, reasoning: false, vision: false, api_key: 'none' }],
  });
  const listed = JSON.parse((await runCliCaptured(['models', 'list', '--json'], { env: { ...env, ANTHROPIC_API_KEY: 'secret-value' } })).stdout) as { models: Record<string, unknown>[] };
  t.like(
    listed.models.find((m) => m['id'] === 'qwen-local'),
    { source: path.join(state, 'models.json'), key: 'none needed', context_window: 32768 },
  );
  t.like(
    listed.models.find((m) => m['id'] === 'claude-sonnet-4-5'),
    { source: 'built-in', key: 'set' },
  );
  t.like(
    listed.models.find((m) => m['id'] === 'gpt-4.1'),
    { key: 'missing' },
  );
  const text = await runCliCaptured(['models', 'list'], { env: { ...env, ANTHROPIC_API_KEY: 'secret-value' } });
  t.regex(text.stdout, /qwen-local {2}openai {2}32768 .*no key needed {2}no price {2}\//);
  t.false(text.stdout.includes('secret-value'), 'never a key value');
  const again = await runCliCaptured(['models', 'add', 'qwen-local', '--provider', 'openai', '--context-window', '1'], { env });
  t.is(again.status, 2);
  t.regex(again.stderr, /already has a model "qwen-local"/);
});

for (const [provider, url, fix] of [
  ['openai', 'http://127.0.0.1:8080', 'try http://127.0.0.1:8080/v1'],
  ['openai', 'http://127.0.0.1:8080/v1/chat/completions', 'try http://127.0.0.1:8080/v1'],
  ['openai', 'http://127.0.0.1:8080/v1/v1', 'try http://127.0.0.1:8080/v1'],
  ['anthropic', 'http://127.0.0.1:8080/v1', 'try http://127.0.0.1:8080'],
] as const) {
  test(`models add refuses the ${provider} base URL ${url}, saying ${fix}, and writes nothing`, async (t) => {
    const { state, env } = home(t);
    const result = await runCliCaptured(['models', 'add', 'm', '--provider', provider, '--base-url', url, '--context-window', '8192'], { env });
    t.is(result.status, 2);
    t.true(result.stderr.includes(fix), result.stderr);
    t.false(existsSync(path.join(state, 'models.json')));
  });
}

test('models test sends one tiny request to a loopback server and reports latency, streaming and tool calls in words', async (t) => {
  const { env } = home(t);
  const server = await serve<OpenAIRequestBody>(t, (_body, _req, res) => openaiStream(res, { text: 'ready', tool: { name: 'report_ready', input: { ready: true } } }, 0));
  t.is((await runCliCaptured(['models', 'add', 'loop', '--provider', 'openai', '--base-url', `${server.base}/v1`, '--context-window', '8192', '--no-key'], { env })).status, 0);
  const result = await runCliCaptured(['models', 'test', 'loop'], { env });
  t.is(result.status, 0, result.stderr);
  t.regex(result.stdout, new RegExp(`^loop at ${server.base}/v1 answered in \\d+ ms \\(first text after \\d+ ms\\)\\.$`, 'mu'));
  t.regex(result.stdout, /^Streaming: yes/mu);
  t.regex(result.stdout, /^Tool calls: yes/mu);
  t.is(server.requests.length, 1);
  t.is(server.requests[0]!.headers.authorization, 'Bearer none', 'a no-key entry sends "none"');
  t.deepEqual(
    server.requests[0]!.body.tools?.map((tool) => tool.function.name),
    ['report_ready'],
  );
});

test('models test says NO when the model answers without calling the tool', async (t) => {
  const { env } = home(t);
  const server = await serve<OpenAIRequestBody>(t, (_body, _req, res) => openaiStream(res, { text: 'ready' }, 0));
  await runCliCaptured(['models', 'add', 'talker', '--provider', 'openai', '--base-url', `${server.base}/v1`, '--context-window', '8192'], { env });
  const keyless = await runCliCaptured(['models', 'test', 'talker'], { env });
  t.is(keyless.status, 1);
  t.regex(keyless.stderr, /ZB_PROVIDER_AUTH/);
  t.regex(keyless.stderr, /any value works/);
  const result = await runCliCaptured(['models', 'test', 'talker'], { env: { ...env, OPENAI_API_KEY: 'local' } });
  t.is(result.status, 0, result.stderr);
  t.regex(result.stdout, /^Tool calls: NO/mu);
});

test('models test of a model in no catalog names the real models file', async (t) => {
  const { state, env } = home(t);
  const result = await runCliCaptured(['models', 'test', 'nope'], { env });
  t.is(result.status, 1);
  t.true(result.stderr.includes(path.join(state, 'models.json')), result.stderr);
});
