// The old source given to `zotbox data move --from` (issue 21 §6): a path that may
// be gone (made canonical as far as it exists), or a GitHub reference without its ref.
import test from 'ava';
import { mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { resolveSourceReference } from '../../../src/host/load/source-reference.js';
import { tempDir } from '../../fixtures/temp.js';

test('a path that still exists is its real path; one that is gone keeps its missing part under the real parent', (t) => {
  const root = realpathSync(tempDir(t, 'zb-source-ref-'));
  mkdirSync(path.join(root, 'real', 'agent'), { recursive: true });
  symlinkSync(path.join(root, 'real'), path.join(root, 'link'));
  t.deepEqual(resolveSourceReference('link/agent', root), { kind: 'local', path: path.join(root, 'real', 'agent') });
  t.deepEqual(resolveSourceReference(path.join(root, 'link', 'moved-away', 'agent'), '/'), { kind: 'local', path: path.join(root, 'real', 'moved-away', 'agent') });
});

test('a GitHub reference names owner/repo/path, its ref and the case of owner and repo left out', (t) => {
  const reviewer = { kind: 'github', owner: 'acme', repo: 'agents', path: 'reviewer' };
  t.deepEqual(resolveSourceReference('github:acme/agents/reviewer@v1', '/'), reviewer);
  t.deepEqual(resolveSourceReference('https://github.com/ACME/agents/tree/main/reviewer', '/'), reviewer);
  t.throws(() => resolveSourceReference('github:acme/../x', '/'), { code: 'ZB_GITHUB_URL_INVALID' } as never);
});
