import test from 'ava';
import { parseManifest } from '../../src/policy/manifest.js';

const base = { zotfile: 1, name: 'agent' };
const parse = (value: unknown) => parseManifest(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)));

const invalid = test.macro({
  exec(t, value: unknown, path: string, message?: RegExp) {
    const error = t.throws(() => parse(value));
    t.is((error as { code?: string } | undefined)?.code, 'ZB_MANIFEST_INVALID');
    t.is((error as { details?: { path?: string } } | undefined)?.details?.path, path);
    if (message !== undefined) t.regex(error.message, message);
  },
  title: (title) => `rejected: ${title ?? 'a manifest'}`,
});

test('a minimal manifest gets every default', (t) => {
  const m = parse(base);
  t.deepEqual(m.permissions, { fs: { read: [], write: [] }, bash: { mode: 'none', allow: [] }, net: { allow: [] } });
  t.deepEqual(m.model, { requires: [], minContext: 0, preferred: [] });
  t.deepEqual(m.entry, { greeting: '', pre: '', defaultPrompt: undefined });
  t.false(m.replaceSystemPrompt);
  t.deepEqual(m.unknownKeys, []);
});

test('a full manifest parses into the typed value', (t) => {
  const m = parse({
    ...base,
    version: '1.2.3',
    description: 'd',
    license: 'MIT',
    runtime: { min_zot: '0.2.0' },
    model: { requires: ['tools', 'reasoning'], min_context: 64000, preferred: ['claude-x'] },
    permissions: { fs: { read: ['${workspace}', 'docs'], write: ['${agent_data}/out'] }, bash: { mode: 'allowlist', allow: ['git', 'ls'] }, net: { allow: [] }, env: { read: [] } },
    requirements: { bin: ['git'], os: ['linux', 'darwin'] },
    entry: { greeting: 'hi', pre: '!git status', default_prompt: '' },
    replace_system_prompt: true,
  });
  t.is(m.runtime.minZot, '0.2.0');
  t.deepEqual(m.permissions.bash, { mode: 'allowlist', allow: ['git', 'ls'] });
  t.is(m.entry.defaultPrompt, '');
  t.true(m.replaceSystemPrompt);
});

test('null fields count as absent, as in zot', (t) => {
  const m = parse({ ...base, version: null, permissions: null, entry: { default_prompt: null } });
  t.is(m.version, '');
  t.is(m.permissions.bash.mode, 'none');
  t.is(m.entry.defaultPrompt, undefined);
});

test('unknown keys are allowed at the top level and in entry, and reported', (t) => {
  t.deepEqual(parse({ ...base, homepage: 'x', entry: { hooks: [] } }).unknownKeys, ['homepage', 'entry.hooks']);
});

test(
  'a duplicate permissions object (zot would merge it)',
  invalid,
  '{"zotfile":1,"name":"a","permissions":{"fs":{"read":["/"]}},"permissions":{"bash":{"mode":"none"}}}',
  '$.permissions',
  /appears twice/,
);
test('a case variant of a known key', invalid, '{"zotfile":1,"name":"a","Permissions":{}}', '$.Permissions', /not a known key|case/);
test('a case variant next to the key', invalid, '{"zotfile":1,"name":"a","NAME":"b"}', '$.NAME', /differ only in case/);
test('a long-s spelling of permissions', invalid, '{"zotfile":1,"name":"a","permiſſions":{"bash":{"mode":"ask"}}}', '$["permiſſions"]');
test('an unknown key inside permissions', invalid, { ...base, permissions: { fs: { read: [] }, network: {} } }, '$.permissions.network', /not a known key/);
test('an unknown key deep inside permissions', invalid, { ...base, permissions: { fs: { read: [], exec: [] } } }, '$.permissions.fs.exec');
test('an unknown key inside model', invalid, { ...base, model: { gpu: true } }, '$.model.gpu');
test('an unknown key inside requirements', invalid, { ...base, requirements: { arch: ['arm64'] } }, '$.requirements.arch');
test('zotfile missing', invalid, { name: 'a' }, '$.zotfile');
test('zotfile 2', invalid, { ...base, zotfile: 2 }, '$.zotfile', /must be 1/);
test('zotfile written 1.0', invalid, '{"zotfile":1.0,"name":"a"}', '$.zotfile', /whole number/);
test('min_context written 1e3', invalid, '{"zotfile":1,"name":"a","model":{"min_context":1e3}}', '$.model.min_context', /whole number/);
test('min_context negative', invalid, { ...base, model: { min_context: -1 } }, '$.model.min_context');
test('a name with uppercase', invalid, { ...base, name: 'Agent' }, '$.name');
test('a name with surrounding spaces', invalid, { ...base, name: ' agent ' }, '$.name');
test('a name with a Kelvin sign', invalid, { ...base, name: 'x\u212a' }, '$.name');
test('an unsupported bash mode', invalid, { ...base, permissions: { bash: { mode: 'all' } } }, '$.permissions.bash.mode');
test('a bash mode with spaces and capitals', invalid, { ...base, permissions: { bash: { mode: ' ASK ' } } }, '$.permissions.bash.mode', /exactly/);
test('allowlist without commands', invalid, { ...base, permissions: { bash: { mode: 'allowlist', allow: [] } } }, '$.permissions.bash.allow', /at least one/);
test('an empty command name', invalid, { ...base, permissions: { bash: { mode: 'allowlist', allow: [''] } } }, '$.permissions.bash.allow[0]');
test('a command given as a path', invalid, { ...base, permissions: { bash: { mode: 'allowlist', allow: ['/usr/bin/grep'] } } }, '$.permissions.bash.allow[0]', /plain command name/);
test('a command with shell syntax', invalid, { ...base, permissions: { bash: { mode: 'allowlist', allow: ['git;rm'] } } }, '$.permissions.bash.allow[0]');
test('"." as a command (source)', invalid, { ...base, permissions: { bash: { mode: 'allowlist', allow: ['.'] } } }, '$.permissions.bash.allow[0]');
test('allow without allowlist mode', invalid, { ...base, permissions: { bash: { mode: 'ask', allow: ['git'] } } }, '$.permissions.bash.allow', /no effect/);
test(
  'a net.allow entry not in canonical form',
  invalid,
  { ...base, permissions: { net: { allow: ['example.com', 'API.github.com'] } } },
  '$.permissions.net.allow[1]',
  /"API\.github\.com".*write "api\.github\.com"/,
);
test('a net.allow IP address without a port', invalid, { ...base, permissions: { net: { allow: ['10.0.0.1'] } } }, '$.permissions.net.allow[0]', /"10\.0\.0\.1".*without a port/);
test('net.allow entries are kept as written', (t) => {
  t.deepEqual(parse({ ...base, permissions: { net: { allow: ['api.github.com', '*.npmjs.org:443'] } } }).permissions.net, { allow: ['api.github.com', '*.npmjs.org:443'] });
});
test('env.read entries', invalid, { ...base, permissions: { env: { read: ['HOME'] } } }, '$.permissions.env.read', /not supported/);
test('an empty scope', invalid, { ...base, permissions: { fs: { read: [''] } } }, '$.permissions.fs.read[0]', /empty/);
test('an unknown scope variable', invalid, { ...base, permissions: { fs: { read: ['${home}'] } } }, '$.permissions.fs.read[0]', /unknown variable/);
test('a tilde scope', invalid, { ...base, permissions: { fs: { write: ['~/notes'] } } }, '$.permissions.fs.write[0]', /not expanded/);
test('a duplicated scope', invalid, { ...base, permissions: { fs: { read: ['a', 'a'] } } }, '$.permissions.fs.read[1]', /twice/);
test('an unknown model capability', invalid, { ...base, model: { requires: ['audio'] } }, '$.model.requires[0]');
test('a model tier', invalid, { ...base, model: { min_tier: 'frontier' } }, '$.model.min_tier', /not supported/);
test('an invalid min_zot', invalid, { ...base, runtime: { min_zot: 'not-a-version' } }, '$.runtime.min_zot');
test('a min_zot with leading zeros', invalid, { ...base, runtime: { min_zot: '01.2.3' } }, '$.runtime.min_zot');
test('an unknown OS', invalid, { ...base, requirements: { os: ['Linux'] } }, '$.requirements.os[0]');
test('a required binary given as a path', invalid, { ...base, requirements: { bin: ['./tool'] } }, '$.requirements.bin[0]');
test('a version that is not a string', invalid, { ...base, version: 1 }, '$.version');
test('replace_system_prompt as a string', invalid, { ...base, replace_system_prompt: 'yes' }, '$.replace_system_prompt');
test('a top-level array', invalid, '[]', '$');
test('a top-level null', invalid, 'null', '$');
test('trailing content', invalid, '{"zotfile":1,"name":"a"} x', '$');
test('a manifest over 1 MiB', invalid, JSON.stringify({ ...base, description: 'x'.repeat(1024 * 1024) }), '$', /at most/);

test('all problems are listed in details, the first in the message', (t) => {
  const error = t.throws(() => parse({ ...base, version: 1, license: 2 }));
  t.deepEqual(
    (error as { details?: { issues?: { path: string }[] } }).details?.issues?.map((i) => i.path),
    ['$.version', '$.license'],
  );
});
