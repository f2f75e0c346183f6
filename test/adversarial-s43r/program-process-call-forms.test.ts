// Review s43r of issue 21: program-command-texts.ts knows node's exec/spawn family, Python's subprocess/os.system/
// os.popen and Perl's/Ruby's system(…). Other process calls that run a command text are not read, so the name npx
// looks up in node_modules/.bin is never followed (nothing named, nothing unresolved): Python's os.exec*/os.spawn*
// (`os.execvp("npx", ["npx", "acme-lint"])`, how a driver hands over to the linter), Perl's exec(…) and backquotes,
// and node's exec imported under another name (`import { execSync as sh }`). The write tool rewrites the workspace bin
// `packages/lint/bin/lint.js`; the user's commit runs it. Fixed: program-process-calls.ts reads these calls.
import test from 'ava';
import { attack, monorepo, nodePayload, ordinaryWriteAccepted } from './fixtures.js';

const cases = [
  ['python os.execvp', 'exec python3 tools/p.py', 'tools/p.py', 'import os\n\nos.execvp("npx", ["npx", "acme-lint"])\n'],
  ['perl backquotes', 'exec perl tools/p.pl', 'tools/p.pl', 'my $out = `npx acme-lint`;\nprint $out;\n'],
  ['perl qx', 'exec perl tools/p.pl', 'tools/p.pl', 'print qx(npx acme-lint);\n'],
  ['node execSync imported as sh', 'exec node tools/p.mjs', 'tools/p.mjs', 'import { execSync as sh } from "node:child_process";\nsh("npx acme-lint", { stdio: "inherit" });\n'],
] as const;

for (const [name, hook, file, code] of cases)
  test(`a workspace bin a hook program runs through npx is protected: ${name}`, async (t) => {
    await attack(t, monorepo(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, [file]: code }), 'packages/lint/bin/lint.js', nodePayload);
  });

test('control: python os.system', async (t) => {
  await attack(
    t,
    monorepo(t, { '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 tools/p.py\n', 'tools/p.py': 'import os\n\nos.system("npx acme-lint")\n' }),
    'packages/lint/bin/lint.js',
    nodePayload,
  );
});

for (const [name, hook, file, code] of cases)
  test(`over-denial: with the hook program ${name}, an ordinary write is accepted`, async (t) => {
    await ordinaryWriteAccepted(t, monorepo(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, [file]: code }));
  });
