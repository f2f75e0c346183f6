// /zotbox paths (issue 25) are decided lexically, from the spelling, never on the
// host: only a path spelled from /zotbox names the package, ".." inside it stays
// inside, and a ".." that leaves it, or reaches it from elsewhere, is the host's.
import test from 'ava';
import { imageEntryOf } from '../../src/policy/image-paths.js';
import { decidePathAccess } from '../../src/policy/path-decision.js';
import type { CompiledScopes } from '../../src/policy/scopes.js';

test('which spellings name the package, and which entry', (t) => {
  t.deepEqual(imageEntryOf('/zotbox'), { virtual: '/zotbox', entry: '' });
  t.deepEqual(imageEntryOf('/zotbox/'), { virtual: '/zotbox', entry: '' });
  t.deepEqual(imageEntryOf('//zotbox/skills/a/../b/'), { virtual: '/zotbox/skills/b', entry: 'skills/b' });
  t.deepEqual(imageEntryOf('/zotbox/skills/./pdf/scripts/x.py'), { virtual: '/zotbox/skills/pdf/scripts/x.py', entry: 'skills/pdf/scripts/x.py' });
  t.is(imageEntryOf('/zotbox/../etc/passwd'), undefined, '".." that leaves /zotbox is the host\'s to resolve');
  t.is(imageEntryOf('/zotbox/skills/pdf/../../../root'), undefined);
  t.is(imageEntryOf('/ws/../zotbox/skills'), undefined, 'reached through a host directory: the host decides');
  t.is(imageEntryOf('/zotboxes/skills'), undefined);
  t.is(imageEntryOf('/ws/zotbox/skills'), undefined);
});

const index = new Map<string, 'file' | 'directory'>([
  ['', 'directory'],
  ['skills', 'directory'],
  ['skills/pdf', 'directory'],
  ['skills/pdf/SKILL.md', 'file'],
]);

function scopes(inCommands: boolean, read: string[] = []): CompiledScopes {
  const image = inCommands ? { kindOf: (e: string) => index.get(e), inCommands } : { kindOf: (e: string) => index.get(e), inCommands, notInCommands: 'confinement is off' };
  return { context: { workspace: '/ws', agentData: '/data', image }, read: read.map((root) => ({ declared: root, root })), write: [], warnings: [] };
}

test('the read tool reads the package without any scope; write and edit are denied there whatever the scopes', (t) => {
  t.like(decidePathAccess('read', '/zotbox/skills/pdf/SKILL.md', scopes(false), undefined, { fileTool: true }), { allow: true, canonicalPath: '/zotbox/skills/pdf/SKILL.md' });
  t.like(decidePathAccess('write', '/zotbox/skills/pdf/SKILL.md', scopes(true, ['/']), undefined, { fileTool: true }), { allow: false, code: 'ZB_POLICY_PATH_PROTECTED' });
  t.like(decidePathAccess('edit', '/zotbox/skills/new.md', scopes(true, ['/']), undefined, { fileTool: true }), { allow: false, code: 'ZB_POLICY_PATH_PROTECTED' });
  t.like(decidePathAccess('read', '/zotbox/skills/pdf/missing.md', scopes(true), undefined, { fileTool: true }), { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
});

test('commands reach the package only where the sandbox mounts it', (t) => {
  t.like(decidePathAccess('read', '/zotbox/skills/pdf', scopes(true)), { allow: true, canonicalPath: '/zotbox/skills/pdf' });
  const hidden = decidePathAccess('read', '/zotbox/skills/pdf/SKILL.md', scopes(false));
  t.like(hidden, { allow: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
  t.regex(hidden.allow ? '' : hidden.reason, /commands cannot reach \/zotbox\/skills\/pdf\/SKILL\.md: confinement is off\. Fix: read the file with the read tool\./u);
});
