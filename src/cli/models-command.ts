// `zotbox models list|path|add|test` (issue 27): the catalog with where each entry
// comes from and whether its key is set (never the value), the real models.json
// path, an entry written from flags, and one tiny request to a model, reported in words.
import { homedir } from 'node:os';
import { API_KEY_VARIABLES, addUserModel, hasModelCredentials, listCatalog, testModel, userModelsFile, type CatalogModel, type ProviderName } from '../api/models.js';
import { formatCost } from '../api/cost.js';
import { requireUsableStateDirectory, resolveStateDirectory, stateDirectoryOrigin } from '../api/state.js';
import { didYouMean, ZotboxError } from '../errors.js';
import type { CliIo, CommandHandler, ParsedCommand } from './command-spec.js';
import { field, writeTerminalText } from './terminal-output.js';
import { unknownAction } from './unknown-action.js';

const ADD_OPTIONS = ['provider', 'base-url', 'context-window', 'reasoning', 'vision', 'max-concurrency', 'no-key'] as const;

export const runModels: CommandHandler = async (parsed, io) => {
  const [action, argument] = parsed.positionals;
  const json = parsed.values['json'] === true;
  if (action !== 'list' && action !== 'path' && action !== 'add' && action !== 'test') {
    throw unknownAction('models', action, ['list', 'path', 'add', 'test']);
  }
  if ((action === 'add' || action === 'test') !== (argument !== undefined)) {
    throw new ZotboxError(
      'ZB_CLI_USAGE',
      action === 'add' || action === 'test' ? `models ${action} needs a model id: 'zotbox models ${action} ID'.` : `models ${action} takes no argument. Run 'zotbox models --help'.`,
    );
  }
  if (action !== 'add') {
    const stray = ADD_OPTIONS.find((name) => parsed.values[name] !== undefined);
    if (stray !== undefined) throw new ZotboxError('ZB_CLI_USAGE', `--${stray} is for models add. Run 'zotbox models --help'.`);
  }
  const state = resolveStateDirectory({ env: io.env, homeDirectory: homedir(), platform: process.platform });
  if (action === 'path') {
    writeTerminalText(io.stdout, `${userModelsFile(state)}\n`);
    return 0;
  }
  requireUsableStateDirectory(state, { origin: stateDirectoryOrigin(io.env), write: action === 'add' });
  if (action === 'list') return list(io, listCatalog(state), json);
  if (action === 'add') return add(io, state, argument!, parsed, json);
  return probe(io, listCatalog(state), argument!, userModelsFile(state), json);
};

function keyState(model: CatalogModel, env: CliIo['env']): string {
  if (model.noKey === true) return 'no key needed';
  return `${API_KEY_VARIABLES[model.provider]} ${hasModelCredentials(model, env) ? 'set' : 'not set'}`;
}

/** Input and output prices per million tokens, as every cost prints (format-cost.ts); "no price" without them (--max-cost refuses such a model). */
function priceText(model: CatalogModel): string {
  return model.prices === undefined ? formatCost(null) : `${formatCost(model.prices.input)} in/${formatCost(model.prices.output)} out`;
}

function list(io: CliIo, catalog: readonly CatalogModel[], json: boolean): number {
  if (json) {
    const models = catalog.map((m) => ({
      id: m.id,
      provider: m.provider,
      context_window: m.contextWindow,
      reasoning: m.reasoning,
      vision: m.vision,
      base_url: m.baseUrl ?? null,
      source: m.source ?? 'built-in',
      key: m.noKey === true ? 'none needed' : hasModelCredentials(m, io.env) ? 'set' : 'missing',
      prices: m.prices === undefined ? null : { input: m.prices.input, output: m.prices.output, cache_write: m.prices.cacheWrite, cache_read: m.prices.cacheRead },
    }));
    writeTerminalText(io.stdout, `${JSON.stringify({ models }, null, 2)}\n`);
    return 0;
  }
  const lines = catalog.map((m) => {
    const capabilities = [m.reasoning ? 'reasoning' : '', m.vision ? 'vision' : ''].filter(Boolean).join(',') || '-';
    return [field(m.id), m.provider, `${m.contextWindow}`, capabilities, field(m.baseUrl ?? '-'), keyState(m, io.env), priceText(m), field(m.source ?? 'built in')].join('  ');
  });
  writeTerminalText(io.stdout, `ID  PROVIDER  CONTEXT  CAPABILITIES  BASE_URL  KEY  PRICE_PER_MTOK  SOURCE\n${lines.join('\n')}\n`);
  return 0;
}

function positiveInteger(parsed: ParsedCommand, name: string): number | undefined {
  const value = parsed.values[name];
  if (value === undefined) return undefined;
  const number = typeof value === 'string' && /^[1-9]\d{0,15}$/u.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(number)) throw new ZotboxError('ZB_CLI_USAGE', `--${name} takes a positive whole number, got ${JSON.stringify(value)}.`);
  return number;
}

function add(io: CliIo, state: string, id: string, parsed: ParsedCommand, json: boolean): number {
  const provider = parsed.values['provider'];
  if (provider !== 'openai' && provider !== 'anthropic') throw new ZotboxError('ZB_CLI_USAGE', `models add needs --provider openai or --provider anthropic (the wire format the server speaks).`);
  const contextWindow = positiveInteger(parsed, 'context-window');
  if (contextWindow === undefined) throw new ZotboxError('ZB_CLI_USAGE', 'models add needs --context-window N: the context the server is configured for, in tokens.');
  const baseUrl = parsed.values['base-url'];
  const maxConcurrency = positiveInteger(parsed, 'max-concurrency');
  const file = addUserModel(state, {
    id,
    provider: provider satisfies ProviderName,
    contextWindow,
    ...(typeof baseUrl === 'string' ? { baseUrl } : {}),
    reasoning: parsed.values['reasoning'] === true,
    vision: parsed.values['vision'] === true,
    ...(maxConcurrency === undefined ? {} : { maxConcurrency }),
    noKey: parsed.values['no-key'] === true,
  });
  if (json) writeTerminalText(io.stdout, `${JSON.stringify({ added: id, path: file })}\n`);
  else writeTerminalText(io.stdout, `added ${field(id)} to ${field(file)}; check it answers with: zotbox models test ${field(id)}\n`);
  return 0;
}

async function probe(io: CliIo, catalog: readonly CatalogModel[], id: string, modelsFile: string, json: boolean): Promise<number> {
  const model = catalog.find((m) => m.id === id);
  if (model === undefined) {
    const suggestion = didYouMean(
      id,
      catalog.map((m) => m.id),
    );
    throw new ZotboxError(
      'ZB_MODEL_UNAVAILABLE',
      `model ${JSON.stringify(id)} is in no catalog.${suggestion} zotbox models list shows the models there are. Fix: declare it in ${modelsFile}, e.g. zotbox models add ${id} --provider openai --base-url http://127.0.0.1:8080/v1 --context-window 32768.`,
      { details: { model: id } },
    );
  }
  if (!hasModelCredentials(model, io.env)) {
    const key = API_KEY_VARIABLES[model.provider];
    throw new ZotboxError(
      'ZB_PROVIDER_AUTH',
      `model ${model.id} needs ${key} in the environment. Fix: set ${key}${model.baseUrl === undefined ? '' : ` (any value works if the server checks no key), or add "api_key": "none" to its entry in ${modelsFile}`}.`,
      { details: { model: model.id } },
    );
  }
  const report = await testModel(model, io.env, io.signal ?? new AbortController().signal);
  if (json) {
    writeTerminalText(
      io.stdout,
      `${JSON.stringify({ model: report.model, endpoint: report.endpoint, first_text_ms: report.firstTextMs ?? null, total_ms: report.totalMs, streamed: report.streamed, tool_call: report.toolCall })}\n`,
    );
    return 0;
  }
  const lines = [
    `${field(report.model)} at ${field(report.endpoint)} answered in ${report.totalMs} ms${report.firstTextMs === undefined ? '' : ` (first text after ${report.firstTextMs} ms)`}.`,
    report.streamed ? 'Streaming: yes, its text arrived in pieces as it was written.' : 'Streaming: no text arrived (the model answered with a tool call only).',
    report.toolCall
      ? 'Tool calls: yes, it called the tool it was offered, so agents can use it.'
      : "Tool calls: NO, it did not call the tool it was offered; agents need tool calls (check the server's tool-call options, docs/models.md).",
  ];
  writeTerminalText(io.stdout, `${lines.join('\n')}\n`);
  return 0;
}
