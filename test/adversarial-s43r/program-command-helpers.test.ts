// Review s43r of issue 21: program-command-texts.ts reads the command text a hook program hands *directly* to a
// process call (`execSync("npx acme-lint")`). Hook drivers rarely do: they wrap the call in a helper
// (`const run = (cmd) => execSync(cmd, {stdio: "inherit"})`, python's `def sh(cmd): subprocess.run(cmd, shell=True)`)
// or loop over a list of commands. The call's argument is then computed, read as "$(computed)", and a computed
// command text holding no runner word is neither looked up nor unresolved; the literal "npx acme-lint" passed to the
// helper is never read as a command. The write tool rewrites the workspace bin `packages/lint/bin/lint.js`; the user's
// commit runs it. Fixed: program-command-values.ts follows the name to the literals the code gives it.
import test from 'ava';
import { attack, monorepo, nodePayload, ordinaryWriteAccepted } from './fixtures.js';

const NODE_HOOK = '#!/bin/sh\nexec node tools/precommit.js\n';

const cases = [
  [
    'node: a helper function around execSync',
    { '.git/hooks/pre-commit': NODE_HOOK, 'tools/precommit.js': 'const { execSync } = require("child_process");\nconst run = (cmd) => execSync(cmd, { stdio: "inherit" });\nrun("npx acme-lint");\n' },
  ],
  [
    'node: a loop over a list of commands',
    {
      '.git/hooks/pre-commit': NODE_HOOK,
      'tools/precommit.js': 'const { execSync } = require("child_process");\nconst steps = ["npx acme-lint"];\nfor (const step of steps) execSync(step, { stdio: "inherit" });\n',
    },
  ],
  [
    'node: the program in a constant',
    { '.git/hooks/pre-commit': NODE_HOOK, 'tools/precommit.js': 'const { execFileSync } = require("child_process");\nconst NPX = "npx";\nexecFileSync(NPX, ["acme-lint"], { stdio: "inherit" });\n' },
  ],
  [
    'python: a helper function around subprocess.run(shell=True)',
    {
      '.git/hooks/pre-commit': '#!/bin/sh\nexec python3 tools/precommit.py\n',
      'tools/precommit.py': 'import subprocess\n\n\ndef sh(cmd):\n    subprocess.run(cmd, shell=True, check=True)\n\n\nsh("npx acme-lint")\n',
    },
  ],
] as const;

for (const [name, files] of cases)
  test(`a workspace bin a hook program runs through a helper is protected: ${name}`, async (t) => {
    await attack(t, monorepo(t, files), 'packages/lint/bin/lint.js', nodePayload);
  });

test('control: the same text handed to execSync directly', async (t) => {
  const files = { '.git/hooks/pre-commit': NODE_HOOK, 'tools/precommit.js': 'const { execSync } = require("child_process");\nexecSync("npx acme-lint", { stdio: "inherit" });\n' };
  await attack(t, monorepo(t, files), 'packages/lint/bin/lint.js', nodePayload);
});

for (const [name, files] of cases)
  test(`over-denial: with the hook program ${name}, an ordinary write is accepted`, async (t) => {
    await ordinaryWriteAccepted(t, monorepo(t, files));
  });
