import test from 'ava';
import { readAgentManifest, validateAgentLayout, type LayoutView } from '../../../src/host/load/agent-layout.js';
import type { ErrorCode } from '../../../src/errors.js';

function view(files: Record<string, string>, directories: string[] = []): LayoutView {
  return {
    entries: [...Object.keys(files).map((name) => ({ name, type: 'file' as const })), ...directories.map((name) => ({ name, type: 'directory' as const }))],
    readFile: (name) => (name in files ? Buffer.from(files[name]!) : undefined),
  };
}

const manifest = (value: unknown) => JSON.stringify(value);

const failsWith = test.macro((t, layout: LayoutView, code: ErrorCode) => {
  const error = t.throws(() => validateAgentLayout(layout));
  t.is((error as { code?: string } | undefined)?.code, code);
});

test('a minimal agent needs only a manifest, and a missing AGENT.md is a warning', (t) => {
  const layout = validateAgentLayout(view({ 'manifest.json': manifest({ zotfile: 1, name: 'test' }) }));
  t.deepEqual(layout.identity, { name: 'test', version: '', description: '' });
  t.is(layout.warnings.length, 1);
});

test('no manifest.json', failsWith, view({ 'AGENT.md': '' }), 'ZB_LAYOUT_MANIFEST_MISSING');
test('manifest.json only in a subfolder', failsWith, view({ 'sub/manifest.json': manifest({ zotfile: 1, name: 'x' }) }), 'ZB_LAYOUT_MANIFEST_MISSING');
test('manifest.json as a directory', failsWith, view({}, ['manifest.json']), 'ZB_LAYOUT_MANIFEST_MISSING');
test('AGENT.md as a directory', failsWith, view({ 'manifest.json': manifest({ zotfile: 1, name: 'x' }) }, ['AGENT.md']), 'ZB_LAYOUT_AGENT_MD_INVALID');
test('a bundled extension', failsWith, view({ 'manifest.json': manifest({ zotfile: 1, name: 'x' }), 'extensions/bad/extension.json': '{}' }), 'ZB_LAYOUT_EXTENSION_BUNDLED');
test('a bundled extension given as a directory', failsWith, view({ 'manifest.json': manifest({ zotfile: 1, name: 'x' }) }, ['extensions/bad/extension.json']), 'ZB_LAYOUT_EXTENSION_BUNDLED');

test('extensions/ without extension.json is fine', (t) => {
  t.notThrows(() => validateAgentLayout(view({ 'manifest.json': manifest({ zotfile: 1, name: 'x' }), 'extensions/readme.txt': '' })));
});

const invalidManifest = test.macro((t, text: string, jsonPath: string) => {
  const error = t.throws(() => readAgentManifest(Buffer.from(text)));
  t.is((error as { code?: string } | undefined)?.code, 'ZB_MANIFEST_INVALID');
  t.is((error as { details?: { path?: string } } | undefined)?.details?.path, jsonPath);
});

test('not JSON', invalidManifest, '{', '$');
test('a UTF-8 BOM', invalidManifest, `\ufeff${manifest({ zotfile: 1, name: 'x' })}`, '$');
test('a top-level array', invalidManifest, '[]', '$');
test('a top-level null', invalidManifest, 'null', '$');
test('zotfile missing', invalidManifest, manifest({ name: 'x' }), '$.zotfile');
test('zotfile 2', invalidManifest, manifest({ zotfile: 2, name: 'x' }), '$.zotfile');
test('zotfile as a string', invalidManifest, manifest({ zotfile: '1', name: 'x' }), '$.zotfile');
test('version as a number', invalidManifest, manifest({ zotfile: 1, name: 'x', version: 1 }), '$.version');

for (const name of ['...', 'Name', 'two words', 'a/b', '-lead', 'trail.', '_x_', 'café', '.hidden', 'x\u212a', ' padded ', '']) {
  test(`the name ${JSON.stringify(name)} is rejected`, invalidManifest, manifest({ zotfile: 1, name }), '$.name');
}
for (const name of ['code-reviewer', 'acme.audit', 'repo_onboarder', '9', 'a..b', 'a--b']) {
  test(`the name ${JSON.stringify(name)} is accepted`, (t) => {
    t.is(readAgentManifest(Buffer.from(manifest({ zotfile: 1, name }))).identity.name, name);
  });
}

test('unknown top-level and entry keys are reported, known ones are not', (t) => {
  const { unknownKeys } = readAgentManifest(Buffer.from(manifest({ zotfile: 1, name: 'x', license: 'MIT', homepage: 'h', entry: { pre: '', hooks: [] } })));
  t.deepEqual(unknownKeys, ['homepage', 'entry.hooks']);
});
