// What to tell a user whose base URL answered 404: each SDK has its own
// convention (OpenAI's base includes the version prefix, Anthropic's does not),
// and a base URL written for the other convention is the usual cause.
/** Version-like last segments of an OpenAI-format base URL: /v1, /v1beta/openai, /openai/v1, /api/v1 ... */
const VERSIONED_OPENAI_BASE = /\/v\d+[a-z0-9]*(\/openai)?$/i;

/** The endpoint paths zotbox appends; a base URL pasted with one already on it is the commonest slip. */
const ENDPOINT_PATHS = { anthropic: /\/v1\/messages$/i, openai: /\/chat\/completions$/i } as const;

export function baseUrlHint(provider: string, baseUrl: string): string {
  const path = new URL(baseUrl).pathname.replace(/\/+$/, '');
  const endpointPath = provider === 'anthropic' ? ENDPOINT_PATHS.anthropic : ENDPOINT_PATHS.openai;
  if (endpointPath.test(path)) {
    const appended = provider === 'anthropic' ? '/v1/messages' : '/chat/completions';
    return `The base URL already ends in ${appended}, which zotbox appends itself: try ${baseUrl.replace(/\/+$/, '').replace(endpointPath, '')}.`;
  }
  if (provider === 'anthropic') {
    if (/\/v1$/i.test(path)) return `Anthropic base URLs do not include /v1 (zotbox appends /v1/messages): try ${baseUrl.replace(/\/v1$/i, '')}.`;
    return 'Check the model id and that the base URL is the Anthropic API root (zotbox appends /v1/messages).';
  }
  if (/\/v1\/v1$/i.test(path)) return `The base URL repeats /v1: try ${baseUrl.replace(/\/v1$/i, '')}.`;
  if (!VERSIONED_OPENAI_BASE.test(path)) {
    return `OpenAI-format base URLs include the version prefix (zotbox appends /chat/completions): try ${baseUrl}/v1 (Ollama, vLLM, LM Studio, llama.cpp) or the URL your server documents for the OpenAI SDK.`;
  }
  return 'Check the model id, and that the base URL is the one your server documents for the OpenAI SDK (zotbox appends /chat/completions).';
}
