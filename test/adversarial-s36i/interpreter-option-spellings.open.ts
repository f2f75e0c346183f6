// Severity: medium. Class: "interpreter-option-spellings" — interpreter-operands.ts reads each interpreter's options by
// a list of spellings, and some spellings the interpreters accept are missing: Perl clusters switches with -I last
// (`perl -wIlib`) and takes `-mlib=DIR` (lowercase m) as `use lib`; Python accepts -R (a no-op kept for compatibility)
// clustered before m (`python3 -Rm tools.check`), which the reader takes for a script named "-Rm"… then "tools.check".
// Each leaves the module the hook loads (lib/Check.pm, tools/check.py) writable.
// Fix direction: parse clustered switches as the interpreter does (perl: flags until one that takes the rest, -I/-M/-m
// both cases; python: every single-letter flag, -R included), and refuse (unresolved) an option the reader does not know.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, git, project } from './harness.js';

const perlModule = 'package Check;\nprint "loaded\\n";\n1;\n';
const cases: { hook: string; files: Record<string, string>; target: string; payload: (p: string) => string }[] = [
  { hook: 'perl -wIlib -MCheck -e 1', files: { 'lib/Check.pm': perlModule }, target: 'lib/Check.pm', payload: (p: string) => `package Check;\nopen(my $f, ">", ${JSON.stringify(p)});\n1;\n` },
  { hook: 'perl -mlib=lib -MCheck -e 1', files: { 'lib/Check.pm': perlModule }, target: 'lib/Check.pm', payload: (p: string) => `package Check;\nopen(my $f, ">", ${JSON.stringify(p)});\n1;\n` },
  {
    hook: 'python3 -Rm tools.check',
    files: { 'tools/__init__.py': '', 'tools/check.py': 'print("checked")\n' },
    target: 'tools/check.py',
    payload: (p: string) => `open(${JSON.stringify(p)}, "w").write("ran")\n`,
  },
];

for (const { hook, files, target, payload } of cases) {
  test(`what \`${hook}\` loads is not writable`, async (t) => {
    const ws = project(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${hook}\n`, ...files });
    const pwned = path.join(path.dirname(ws), 'PWNED');
    const output = await agentWrites(t, ws, target, payload(pwned));
    t.regex(output, /denied/u, output);
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'next');
    t.false(existsSync(pwned), `the pre-commit hook loaded ${target} written by the agent`);
  });
}
