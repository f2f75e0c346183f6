// `zotbox models` (issue 27): the catalog with where each entry comes from, adding
// an entry to the user models file (the `/v1` convention checked), and one tiny
// request to a model that says, in words, whether it answers, streams and calls tools.
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ZotboxError, fileSystemError } from '../../errors.js';
import { BUILT_IN_MODELS, readUserModels, userModelsFile, type CatalogModel, type ProviderName } from './model-catalog.js';
import { providerForModel } from './provider-for-model.js';

/** Every catalog model: built-ins first, then the user models file's. */
export function listCatalog(stateDirectory: string): CatalogModel[] {
  return [...BUILT_IN_MODELS, ...readUserModels(stateDirectory)];
}

export interface NewModelEntry {
  readonly id: string;
  readonly provider: ProviderName;
  readonly baseUrl?: string;
  readonly contextWindow: number;
  readonly reasoning?: boolean;
  readonly vision?: boolean;
  readonly maxConcurrency?: number;
  /** The server takes no key: the entry gets "api_key": "none". */
  readonly noKey?: boolean;
}

/** What is wrong with a base URL for its provider's convention (docs/models.md), or undefined. */
export function baseUrlProblem(provider: ProviderName, baseUrl: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return `${JSON.stringify(baseUrl)} is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${JSON.stringify(baseUrl)} is not an http or https URL`;
  const trimmed = url.pathname.replace(/\/+$/u, '');
  if (provider === 'openai') {
    if (trimmed.endsWith('/chat/completions')) return `an OpenAI-format base URL stops before /chat/completions (zotbox appends it): try ${baseUrl.replace(/\/chat\/completions\/?$/u, '')}`;
    if (/\/v1\/v1$/u.test(trimmed)) return `it has /v1 twice: try ${baseUrl.replace(/\/v1\/?$/u, '')}`;
    if (!/\/v\d+(beta)?(\/openai)?$|\/openai$/u.test(trimmed))
      return `an OpenAI-format base URL ends with the API version, usually /v1 (zotbox appends /chat/completions): try ${baseUrl.replace(/\/+$/u, '')}/v1`;
  } else if (/\/v1$/u.test(trimmed)) {
    return `an Anthropic-format base URL is the API root without /v1 (zotbox appends /v1/messages): try ${baseUrl.replace(/\/v1\/?$/u, '')}`;
  }
  return undefined;
}

/** Adds an entry to STATE/models.json (created if absent), atomically; returns the file. Refuses an id already in the catalog. */
export function addUserModel(stateDirectory: string, entry: NewModelEntry): string {
  const file = userModelsFile(stateDirectory);
  if (entry.baseUrl !== undefined) {
    const problem = baseUrlProblem(entry.provider, entry.baseUrl);
    if (problem !== undefined) throw new ZotboxError('ZB_CLI_USAGE', `--base-url: ${problem} (docs/models.md, Base URLs).`, { details: { base_url: entry.baseUrl } });
  }
  const existing = listCatalog(stateDirectory).find((m) => m.id === entry.id);
  if (existing !== undefined) {
    throw new ZotboxError('ZB_CLI_USAGE', `the catalog already has a model ${JSON.stringify(entry.id)} (${existing.source ?? 'built in'}). Fix: choose another id, or edit ${file}.`, {
      details: { model: entry.id, path: file },
    });
  }
  let document: { models: unknown[] } = { models: [] };
  try {
    document = JSON.parse(readFileSync(file, 'utf8')) as { models: unknown[] };
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code !== 'ENOENT') throw fileSystemError('read', file, cause);
  }
  document.models.push({
    id: entry.id,
    provider: entry.provider,
    ...(entry.baseUrl === undefined ? {} : { base_url: entry.baseUrl }),
    context_window: entry.contextWindow,
    reasoning: entry.reasoning ?? false,
    vision: entry.vision ?? false,
    ...(entry.maxConcurrency === undefined ? {} : { max_concurrency: entry.maxConcurrency }),
    ...(entry.noKey === true ? { api_key: 'none' } : {}),
  });
  // The existing file was read and checked by listCatalog above; the new entry comes from checked flags.
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(temporary, `${JSON.stringify(document, null, 2)}\n`, { mode: 0o600 });
    renameSync(temporary, file);
  } catch (cause) {
    rmSync(temporary, { force: true });
    throw fileSystemError('write', file, cause);
  }
  return file;
}

export interface ModelTestReport {
  readonly model: string;
  readonly endpoint: string;
  /** Milliseconds to the first streamed text (undefined: no text streamed). */
  readonly firstTextMs?: number;
  readonly totalMs: number;
  readonly streamed: boolean;
  readonly toolCall: boolean;
  readonly text: string;
}

const PROBE_TOOL = {
  name: 'report_ready',
  description: 'Call this tool to report that you are ready.',
  input_schema: { type: 'object', properties: { ready: { type: 'boolean' } }, required: ['ready'] },
};

/** One tiny request to the model (one tool offered): latency, whether text streamed, whether it called the tool. */
export async function testModel(
  model: CatalogModel,
  env: Readonly<Record<string, string | undefined>>,
  signal: AbortSignal,
  now: () => number = performance.now.bind(performance),
): Promise<ModelTestReport> {
  const provider = providerForModel({ model, env });
  const start = now();
  let firstText: number | undefined;
  let text = '';
  const turn = await provider.complete(
    {
      system: 'You are being tested. Be brief.',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Say "ready" in one word, then call the report_ready tool with ready=true.' }] }],
      tools: [PROBE_TOOL],
    },
    (delta) => {
      firstText ??= now();
      text += delta;
    },
    signal,
  );
  const totalMs = Math.round(now() - start);
  const endpoint = model.baseUrl ?? (model.provider === 'anthropic' ? env['ANTHROPIC_BASE_URL'] || 'https://api.anthropic.com' : env['OPENAI_BASE_URL'] || 'https://api.openai.com/v1');
  return {
    model: model.id,
    endpoint,
    ...(firstText === undefined ? {} : { firstTextMs: Math.round(firstText - start) }),
    totalMs,
    streamed: firstText !== undefined,
    toolCall: turn.content.some((block) => block.type === 'tool_use' && block.name === PROBE_TOOL.name),
    text: text || turn.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
  };
}
