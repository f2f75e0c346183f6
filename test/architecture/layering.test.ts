// The layout is the architecture (DEVELOPERS.md): these tests fail when a layer
// imports what it must not.
import test from 'ava';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { checkLayering, collectImports } from '../fixtures/layering.js';
import { SRC_DIR } from '../fixtures/paths.js';

function readSourceTree(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const absolute = path.join(entry.parentPath, entry.name);
    files.set(path.relative(root, absolute).split(path.sep).join('/'), readFileSync(absolute, 'utf8'));
  }
  return files;
}

test('the src tree obeys every layering rule', (t) => {
  const files = readSourceTree(SRC_DIR);
  t.true(files.size > 5, 'the checker saw the source tree');
  t.deepEqual(checkLayering(files), []);
});

const violations = test.macro((t, files: Record<string, string>, expected: RegExp) => {
  const found = checkLayering(new Map(Object.entries(files)));
  t.true(
    found.some((v) => expected.test(v.message)),
    `expected a violation matching ${expected}, got ${JSON.stringify(found)}`,
  );
});

test('archive importing host is caught', violations, { 'archive/a.ts': "import { x } from '../host/run/h.js';", 'host/run/h.ts': '' }, /\(archive\) imports host\/run\/h\.ts \(host\)/);
test('archive importing worker is caught', violations, { 'archive/a.ts': "export * from '../worker/w.js';", 'worker/w.ts': '' }, /\(archive\) imports worker/);
test('archive importing policy is caught', violations, { 'archive/a.ts': "import '../policy/p.js';", 'policy/p.ts': '' }, /\(archive\) imports policy/);
test('policy importing host is caught', violations, { 'policy/p.ts': "import { h } from '../host/run/h.js';", 'host/run/h.ts': '' }, /\(policy\) imports host/);
test('policy importing archive values (not types) is caught', violations, { 'policy/p.ts': "import { packTar } from '../archive/a.js';", 'archive/a.ts': '' }, /only `import type` is allowed/);
test(
  'policy importing values from an archive file other than the pure entry-name checks is caught',
  violations,
  { 'policy/p.ts': "import { walkSourceTree } from '../archive/source-tree.js';", 'archive/source-tree.ts': '' },
  /\(policy\) imports archive\/source-tree\.ts \(archive\) \(only `import type` is allowed\)/,
);
test(
  'the pure entry-name file that policy may import values from is caught when it imports anything',
  violations,
  { 'policy/p.ts': "import { isGitDirectoryName } from '../archive/entry-name.js';", 'archive/entry-name.ts': "import { ZotboxError } from '../errors.js';", 'errors.ts': '' },
  /archive\/entry-name\.ts:1 imports \.\.\/errors\.js, but other layers import values from it/,
);
test('worker importing host is caught', violations, { 'worker/w.ts': "import { run } from '../host/run/pool.js';", 'host/run/pool.ts': '' }, /\(worker\) imports host/);
test('worker importing node:fs is caught', violations, { 'worker/w.ts': "import { readFileSync } from 'node:fs';" }, /worker reaches 'node:fs'/);
test('worker importing bare fs/promises is caught', violations, { 'worker/w.ts': "import fs from 'fs/promises';" }, /worker reaches 'fs\/promises'/);
test('worker importing node:child_process is caught', violations, { 'worker/w.ts': "import { spawn } from 'node:child_process';" }, /worker reaches 'node:child_process'/);
test('worker importing node:net is caught', violations, { 'worker/w.ts': "import net from 'node:net';" }, /worker reaches 'node:net'/);
test('worker importing undici is caught', violations, { 'worker/w.ts': "import { request } from 'undici';" }, /imports package 'undici'/);
test('worker reaching node:fs through a dynamic import is caught', violations, { 'worker/w.ts': "const fs = await import('node:fs');" }, /worker reaches 'node:fs'/);
test('worker reaching node:fs through require is caught', violations, { 'worker/w.ts': "const fs = require('node:fs');" }, /worker reaches 'node:fs'/);
test('worker reaching node:fs through process.getBuiltinModule is caught', violations, { 'worker/w.ts': "const fs = process.getBuiltinModule('node:fs');" }, /worker reaches 'node:fs'/);
test('worker building a module name at run time is caught', violations, { 'worker/w.ts': "const m = await import('node:' + 'fs');" }, /computed specifier/);
test('worker using process.binding is caught', violations, { 'worker/w.ts': "process.binding('fs');" }, /process\.binding/);
test(
  'worker reaching node:fs transitively through an allowed policy file is caught',
  violations,
  { 'worker/w.ts': "import { decide } from '../policy/p.js';", 'policy/p.ts': "import { lstatSync } from 'node:fs';" },
  /worker reaches 'node:fs' through worker\/w\.ts -> policy\/p\.ts/,
);
test('cli reaching past the public API into host is caught', violations, { 'cli.ts': "import { pool } from './host/run/pool.js';", 'host/run/pool.ts': '' }, /\(cli\) imports host/);
test(
  'a host room importing a room on its own floor is caught',
  violations,
  { 'host/load/a.ts': "import { m } from '../models/m.js';", 'host/models/m.ts': '' },
  /\(host\/load, floor 2\) imports host\/models\/m\.ts \(host\/models, floor 2\)/,
);
test(
  'a host room importing the room above it is caught',
  violations,
  { 'host/executors/e.ts': "import type { Plan } from '../run/plan.js';", 'host/run/plan.ts': '' },
  /\(host\/executors, floor 1\) imports host\/run\/plan\.ts/,
);
test('a file directly in host/ is caught', violations, { 'host/loose.ts': 'export {};' }, /is not in a host room/);
test(
  'cli reaching past the entry modules into policy is caught',
  violations,
  { 'cli/c.ts': "import { parseManifest } from '../policy/manifest.js';", 'policy/manifest.ts': '' },
  /\(cli\) imports policy\/manifest\.ts \(policy\)/,
);
test(
  'an entry module of the public API holding code of its own is caught',
  violations,
  { 'api/agents.ts': "import { openAgent } from '../host/load/open-agent.js';\nexport const open = openAgent;", 'host/load/open-agent.ts': '' },
  /api\/agents\.ts:1 is not a re-export/,
);
test(
  'index.ts re-exporting a host file past the entry modules is caught',
  violations,
  { 'index.ts': "export { runAgent } from './host/run/run-agent.js';", 'host/run/run-agent.ts': '' },
  /index\.ts:1 re-exports host\/run\/run-agent\.ts directly/,
);
test('a file outside every layer is caught', violations, { 'utils.ts': 'export {};' }, /not in any layer/);

test('allowed imports produce no violation', (t) => {
  const files = new Map(
    Object.entries({
      'errors.ts': '',
      'archive/a.ts': "import { ZotboxError } from '../errors.js';\nimport binding from 'zstd-napi/binding.js';\nimport { readFile } from 'node:fs/promises';",
      'policy/p.ts': "import type { AgentImage } from '../archive/a.js';\nimport { z } from 'zod';\nimport { lstatSync } from 'node:fs';",
      'policy/gate-client.ts': "import { z } from 'zod';",
      'policy/git-control.ts': "import { isGitDirectoryName } from '../archive/entry-name.js';\nexport { isGitDirectoryName };",
      'archive/entry-name.ts': 'export const x = 1;',
      'worker/w.ts': "import { call } from '../policy/gate-client.js';\nimport type { AgentImage } from '../archive/a.js';\nimport { MessagePort } from 'node:worker_threads';",
      'host/run/h.ts': "import { spawn } from 'node:child_process';\nimport { request } from 'undici';\nimport '../../archive/a.js';\nimport '../../policy/p.js';",
      'api/run.ts': "export { h } from '../host/run/h.js';\nexport type { A } from '../archive/a.js';",
      'index.ts': "export { h } from './api/run.js';\nexport { ZotboxError } from './errors.js';",
      'cli.ts': "const { h } = await import('./api/run.js');\nimport type { A } from './index.js';\nimport { ZotboxError } from './errors.js';",
    }),
  );
  t.deepEqual(checkLayering(files), []);
});

test('type-only imports are recognised in every spelling', (t) => {
  const refs = collectImports('x.ts', "import type { A } from './a.js';\nimport { type B } from './b.js';\nexport type { C } from './c.js';\nimport { D } from './d.js';");
  t.deepEqual(
    refs.map((r) => [r.specifier, r.typeOnly]),
    [
      ['./a.js', true],
      ['./b.js', true],
      ['./c.js', true],
      ['./d.js', false],
    ],
  );
});
