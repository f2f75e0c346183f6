// The zod-free recogniser of valid manifests (issue 11) against the zod schema,
// which stays the authority: on generated manifests, valid and not, the recogniser
// accepts exactly what the schema accepts, with the same fields (differential).
import test from 'ava';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { manifestSchema } from '../../src/policy/manifest-schema.js';
import { readManifestFields } from '../../src/policy/manifest-shape.js';
import { parseStrictJson } from '../../src/policy/strict-json.js';
import { EXAMPLES_DIR } from '../fixtures/paths.js';

type Json = { [key: string]: unknown };

/** What parseStrictJson makes of a value, as parseManifest sees it. */
function asParsed(value: unknown): Json {
  const parsed = parseStrictJson(Buffer.from(JSON.stringify(value)));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.value as Json;
}

/** The fields parseManifest reads, from either reader's output: unknown keys and the always-empty sections dropped. */
function fieldsRead(read: unknown): unknown {
  if (read === undefined) return undefined;
  const m = read as Json;
  const pick = (o: unknown, keys: string[]) => (o === undefined ? undefined : Object.fromEntries(keys.map((k) => [k, (o as Json)[k]])));
  const permissions = m['permissions'] as Json | undefined;
  return {
    ...pick(m, ['zotfile', 'name', 'version', 'description', 'license', 'replace_system_prompt']),
    runtime: pick(m['runtime'], ['min_zot']),
    model: pick(m['model'], ['requires', 'min_context', 'preferred']),
    permissions: permissions === undefined ? undefined : { fs: pick(permissions['fs'], ['read', 'write']), bash: pick(permissions['bash'], ['mode', 'allow']) },
    requirements: pick(m['requirements'], ['bin', 'os']),
    entry: pick(m['entry'], ['greeting', 'pre', 'default_prompt']),
  };
}

function bothReaders(value: unknown) {
  const input = asParsed(value);
  const schema = manifestSchema().safeParse(input);
  return { recognised: fieldsRead(readManifestFields(input)), schema: schema.success ? fieldsRead(schema.data) : undefined };
}

// Generated valid manifests: each field absent, null where allowed, or one of its valid values.
const text = fc.constantFrom('x', '', '1.0.0', null);
const scopeList = fc.constantFrom([], ['${workspace}'], ['docs', '${agent_data}/out'], null);
const optionalRecord = <T>(fields: { [K in keyof T]: fc.Arbitrary<T[K]> }) => fc.oneof(fc.constant(null), fc.record(fields, { requiredKeys: [] }));
const VALID_MANIFEST = fc.record(
  {
    zotfile: fc.constant(1),
    name: fc.constantFrom('agent', 'code-reviewer', 'a.b_c', '0'),
    version: text,
    description: text,
    license: text,
    runtime: optionalRecord({ min_zot: fc.constantFrom('0.2.0', 'v1', '1.2', null) }),
    model: optionalRecord({
      requires: fc.constantFrom([], ['tools'], ['tools', 'vision', 'reasoning'], null),
      min_context: fc.constantFrom(0, 32000, 2 ** 53 - 1, null),
      preferred: fc.constantFrom([], ['claude-x'], null),
      min_tier: fc.constantFrom('', null),
    }),
    permissions: optionalRecord({
      fs: optionalRecord({ read: scopeList, write: scopeList }),
      bash: fc.oneof(
        fc.constantFrom(null, {}, { mode: 'none' }, { mode: 'ask', allow: [] }, { mode: null, allow: null }),
        fc.record({ mode: fc.constant('allowlist'), allow: fc.constantFrom(['git'], ['git', 'ls'], ['c++', 'python3.12']) }),
      ),
      net: fc.constantFrom(
        null,
        {},
        { allow: [] },
        { allow: null },
        { allow: ['api.github.com', '*.githubusercontent.com', 'registry.npmjs.org:443', '127.0.0.1:8080', '[::1]:8080', 'localhost:3000'] },
      ),
      env: fc.constantFrom(null, {}, { read: [] }),
    }),
    requirements: optionalRecord({ bin: fc.constantFrom(['git'], [], null), os: fc.constantFrom(['linux', 'darwin'], [], null) }),
    entry: optionalRecord({ greeting: text, pre: text, default_prompt: text, later_key: fc.constant({ any: 'thing' }) }),
    replace_system_prompt: fc.constantFrom(true, false, null),
    future_key: fc.constantFrom({ anything: [1, 'x'] }, null),
  },
  { requiredKeys: ['zotfile', 'name'] },
);

// One value the schema rejects, by hand, for each rule, at the path it breaks.
const BREAKS: readonly (readonly [string[], unknown])[] = [
  [['zotfile'], 2],
  [['zotfile'], '1'],
  [['zotfile'], null],
  [['name'], 'Agent'],
  [['name'], ''],
  [['name'], 'x-'],
  [['name'], null],
  [['version'], 5],
  [['license'], []],
  [['runtime'], 'x'],
  [['runtime', 'min_zot'], '01.2.0'],
  [['runtime', 'min_zot'], 'V1'],
  [['runtime', 'min_zot'], 2],
  [['runtime', 'other'], 1],
  [['model'], []],
  [
    ['model', 'requires'],
    ['tools', 'tools'],
  ],
  [['model', 'requires'], ['x']],
  [['model', 'requires'], 'tools'],
  [['model', 'min_context'], -1],
  [['model', 'min_context'], 1.5],
  [['model', 'min_context'], 2 ** 53],
  [['model', 'min_context'], '5'],
  [['model', 'preferred'], ['']],
  [
    ['model', 'preferred'],
    ['a', 'a'],
  ],
  [['model', 'min_tier'], 'gold'],
  [['model', 'extra'], 1],
  [['permissions'], 'all'],
  [['permissions', 'fs'], []],
  [
    ['permissions', 'fs', 'read'],
    ['docs', 'docs'],
  ],
  [['permissions', 'fs', 'read'], ['${nope}']],
  [['permissions', 'fs', 'write'], ['${workspace']],
  [['permissions', 'fs', 'write'], ['~/x']],
  [['permissions', 'fs', 'read'], ['a\u0000b']],
  [['permissions', 'fs', 'read'], ['']],
  [['permissions', 'fs', 'read'], [5]],
  [['permissions', 'fs', 'read'], 'docs'],
  [['permissions', 'fs', 'exec'], []],
  [['permissions', 'bash'], { mode: 'allowlist' }],
  [['permissions', 'bash'], { allow: ['git'] }],
  [['permissions', 'bash'], { mode: 'ask', allow: ['git'] }],
  [['permissions', 'bash'], { mode: 'Allowlist', allow: ['git'] }],
  [['permissions', 'bash'], { mode: 'allowlist', allow: ['git', 'git'] }],
  [['permissions', 'bash'], { mode: 'allowlist', allow: ['/bin/ls'] }],
  [['permissions', 'bash'], { mode: 'allowlist', allow: ['git status'] }],
  [['permissions', 'bash', 'shell'], 'sh'],
  [['permissions', 'net'], { allow: ['Example.com'] }],
  [['permissions', 'net'], { allow: ['127.0.0.1'] }],
  [['permissions', 'net'], { allow: ['example.com', 'example.com'] }],
  [['permissions', 'net'], { allow: ['https://example.com'] }],
  [['permissions', 'net'], { allow: [5] }],
  [['permissions', 'net'], { hosts: [] }],
  [['permissions', 'env'], { read: ['HOME'] }],
  [['permissions', 'env'], 'x'],
  [['permissions', 'network'], {}],
  [['requirements'], []],
  [
    ['requirements', 'bin'],
    ['git', 'git'],
  ],
  [['requirements', 'bin'], ['/usr/bin/git']],
  [['requirements', 'os'], ['Linux']],
  [['requirements', 'os'], 'linux'],
  [['requirements', 'gpu'], true],
  [['entry'], 'x'],
  [['entry', 'greeting'], 5],
  [['entry', 'pre'], []],
  [['replace_system_prompt'], 'true'],
  [['replace_system_prompt'], 0],
];

/** A copy of `manifest` with `value` at `at`, creating (or replacing null with) the objects on the way. */
function withValueAt(manifest: Json, at: readonly string[], value: unknown): Json {
  const copy = structuredClone(manifest);
  let node = copy;
  for (const key of at.slice(0, -1)) {
    const next = node[key];
    const child = next !== null && typeof next === 'object' && !Array.isArray(next) ? (next as Json) : {};
    node[key] = child;
    node = child;
  }
  node[at.at(-1)!] = value;
  return copy;
}

test('every generated valid manifest is recognised without the schema, with the fields the schema gives (property)', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(VALID_MANIFEST, (value) => {
        const { recognised, schema } = bothReaders(value);
        return schema !== undefined && recognised !== undefined && JSON.stringify(recognised) === JSON.stringify(schema);
      }),
      { numRuns: 2000 },
    ),
  );
});

test('a valid manifest with any one rule broken is declined by the recogniser and rejected by the schema (property, differential)', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(VALID_MANIFEST, fc.constantFrom(...BREAKS), (value, [at, broken]) => {
        const { recognised, schema } = bothReaders(withValueAt(value, at, broken));
        return recognised === undefined && schema === undefined;
      }),
      { numRuns: 3000 },
    ),
  );
});

test('each rule broken in a full manifest is declined (every break, once)', (t) => {
  const full = {
    zotfile: 1,
    name: 'agent',
    version: '1.0.0',
    description: 'd',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools'], min_context: 1, preferred: ['m'], min_tier: '' },
    permissions: { fs: { read: ['${workspace}'], write: [] }, bash: { mode: 'allowlist', allow: ['git'] }, net: { allow: [] }, env: { read: [] } },
    requirements: { bin: ['git'], os: ['linux'] },
    entry: { greeting: 'hi', pre: '', default_prompt: null },
    replace_system_prompt: false,
  };
  t.not(readManifestFields(asParsed(full)), undefined, 'the full manifest itself is recognised');
  for (const [at, broken] of BREAKS) {
    const { recognised, schema } = bothReaders(withValueAt(full, at, broken));
    t.is(schema, undefined, `the schema accepts ${at.join('.')} = ${JSON.stringify(broken)}; this break is not one`);
    t.is(recognised, undefined, `${at.join('.')} = ${JSON.stringify(broken)} was recognised`);
  }
});

test('the example agents are recognised, so check and inspect read them without zod', (t) => {
  for (const agent of ['code-reviewer', 'repo-maintainer']) {
    const value = asParsed(JSON.parse(readFileSync(path.join(EXAMPLES_DIR, agent, 'manifest.json'), 'utf8')));
    t.not(readManifestFields(value), undefined, agent);
  }
});
