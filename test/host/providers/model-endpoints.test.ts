// The registry of model endpoints: one entry per provider and normalized base
// URL, the concurrency each gets (default, configured, strictest wins), and the
// base URLs and limits it refuses.
import test from 'ava';
import type { ZotboxError } from '../../../src/errors.js';
import { ModelEndpoints } from '../../../src/host/providers/model-endpoints.js';

function registry(t: import('ava').ExecutionContext, options: ConstructorParameters<typeof ModelEndpoints>[0] = {}): ModelEndpoints {
  const endpoints = new ModelEndpoints(options);
  t.teardown(() => endpoints.close());
  return endpoints;
}

test('spellings of one base URL are one endpoint, with one dispatcher', (t) => {
  const endpoints = registry(t);
  const a = endpoints.endpoint({ provider: 'openai', baseUrl: 'http://LOCALHOST:8080/' });
  const b = endpoints.endpoint({ provider: 'openai', baseUrl: 'http://localhost:8080' });
  const c = endpoints.endpoint({ provider: 'openai', baseUrl: 'http://localhost:8080//' });
  t.is(a, b);
  t.is(a, c);
  t.is(a.key, 'openai http://localhost:8080');
  t.is(a.baseUrl, 'http://localhost:8080');
});

test('the default port is part of the origin as URL writes it', (t) => {
  const endpoints = registry(t);
  t.is(endpoints.endpoint({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com:443' }), endpoints.endpoint({ provider: 'anthropic', baseUrl: 'https://api.anthropic.com' }));
});

test('another path, port or provider is another endpoint with its own dispatcher', (t) => {
  const endpoints = registry(t);
  const base = endpoints.endpoint({ provider: 'openai', baseUrl: 'http://127.0.0.1:9000/a' });
  const others = [
    endpoints.endpoint({ provider: 'openai', baseUrl: 'http://127.0.0.1:9000/b' }),
    endpoints.endpoint({ provider: 'openai', baseUrl: 'http://127.0.0.1:9001/a' }),
    endpoints.endpoint({ provider: 'anthropic', baseUrl: 'http://127.0.0.1:9000/a' }),
  ];
  for (const other of others) {
    t.not(other, base);
    t.not(other.dispatcher, base.dispatcher);
    t.not(other.limiter, base.limiter);
    t.not(other.gate, base.gate);
  }
});

test('an endpoint nobody configured starts at 256 requests at once, and adapts', (t) => {
  const endpoint = registry(t).endpoint({ provider: 'openai', baseUrl: 'http://h' });
  t.is(endpoint.limiter.limit, 256);
  t.true(endpoint.adaptive.adapting);
});

test('a registry default replaces the adaptive limit for endpoints nobody configured, fixed', (t) => {
  const endpoint = registry(t, { defaultConcurrency: 3 }).endpoint({ provider: 'openai', baseUrl: 'http://h' });
  t.is(endpoint.limiter.limit, 3);
  t.false(endpoint.adaptive.adapting);
});

test('a configured limit ends the adapting of an endpoint made without one', (t) => {
  const endpoints = registry(t);
  const endpoint = endpoints.endpoint({ provider: 'openai', baseUrl: 'http://h' });
  endpoints.endpoint({ provider: 'openai', baseUrl: 'http://h', maxConcurrency: 100 });
  t.is(endpoint.limiter.limit, 100);
  t.false(endpoint.adaptive.adapting);
});

test('the first configured limit replaces the default, even upward; later ones only lower it', (t) => {
  const endpoints = registry(t);
  const address = { provider: 'openai', baseUrl: 'http://h' };
  const endpoint = endpoints.endpoint(address);
  t.is(endpoints.endpoint({ ...address, maxConcurrency: 16 }).limiter.limit, 16);
  t.is(endpoints.endpoint({ ...address, maxConcurrency: 4 }).limiter.limit, 4);
  t.is(endpoints.endpoint({ ...address, maxConcurrency: 12 }).limiter.limit, 4, 'the strictest wins');
  t.is(endpoints.endpoint(address).limiter.limit, 4, 'asking without a limit changes nothing');
  t.is(endpoint.limiter.limit, 4);
});

const refusedBaseUrl = test.macro((t, baseUrl: string) => {
  const error = t.throws<ZotboxError>(() => registry(t).endpoint({ provider: 'openai', baseUrl }));
  t.is(error.code, 'ZB_MODEL_UNAVAILABLE');
  t.like(error.details, { provider: 'openai', baseUrl });
});

test('a base URL that is not a URL is refused', refusedBaseUrl, 'api.openai.com');
test('a base URL that is not http(s) is refused', refusedBaseUrl, 'file:///etc/passwd');
test('a base URL with credentials is refused', refusedBaseUrl, 'https://user:secret@api.example.com');
test('a base URL with a query is refused', refusedBaseUrl, 'https://api.example.com/?key=1');
test('a base URL with a fragment is refused', refusedBaseUrl, 'https://api.example.com/#x');

const refusedLimit = test.macro((t, limit: number) => {
  const error = t.throws<ZotboxError>(() => registry(t).endpoint({ provider: 'openai', baseUrl: 'http://h', maxConcurrency: limit }));
  t.is(error.code, 'ZB_MODEL_UNAVAILABLE');
});

test('a limit of 0 is refused', refusedLimit, 0);
test('a negative limit is refused', refusedLimit, -2);
test('a fractional limit is refused', refusedLimit, 1.5);
test('a NaN limit is refused', refusedLimit, Number.NaN);
test('an infinite limit is refused', refusedLimit, Number.POSITIVE_INFINITY);

test('a registry default of 0 is refused', (t) => {
  t.is(t.throws<ZotboxError>(() => new ModelEndpoints({ defaultConcurrency: 0 })).code, 'ZB_MODEL_UNAVAILABLE');
});

test('close() closes every dispatcher and forgets the endpoints', async (t) => {
  const endpoints = new ModelEndpoints();
  const first = endpoints.endpoint({ provider: 'openai', baseUrl: 'http://h' });
  await endpoints.close();
  t.true(first.dispatcher.closed);
  const again = endpoints.endpoint({ provider: 'openai', baseUrl: 'http://h' });
  t.not(again, first);
  await endpoints.close();
});
