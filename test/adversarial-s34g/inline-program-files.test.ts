// Finding (-c/-e programs): the reader reads an inline program for the modules it imports and the relative files it
// `require(...)`s, but not for the files it runs by the interpreter's other spellings: Perl's `do "./tools/x.pl"` and
// `require "./tools/x.pl"`, Python's `runpy.run_path("tools/x.py")` and `exec(open("tools/x.py").read())`. The whole
// program is one word of the hook (no such file), so tools/x.* is not protected: the agent's write tool replaces it and
// the user's next commit runs it unconfined.
// Safe outcome: each write refused (a file an inline program runs is protected as its script operand would be).
import test from 'ava';
import { agentRun, ran, userCommits, world } from './harness.js';

const cases: Record<string, { line: string; file: string; planted: (marker: string) => string }> = {
  'perl do FILE': { line: `perl -e 'do "./tools/check.pl" or die $@'`, file: 'tools/check.pl', planted: (m) => `open(my $f, '>', '${m}'); 1;\n` },
  'perl require FILE': { line: `perl -e 'require "./tools/check.pl"'`, file: 'tools/check.pl', planted: (m) => `open(my $f, '>', '${m}'); 1;\n` },
  'python runpy.run_path': { line: `python3 -c 'import runpy; runpy.run_path("tools/check.py")'`, file: 'tools/check.py', planted: (m) => `open(${JSON.stringify(m)}, "w")\n` },
  'python exec(open())': { line: `python3 -c 'exec(open("tools/check.py").read())'`, file: 'tools/check.py', planted: (m) => `open(${JSON.stringify(m)}, "w")\n` },
};

for (const [name, { line, file, planted }] of Object.entries(cases)) {
  test(`a file an inline program runs is protected (${name})`, async (t) => {
    const w = world(t, { '.git/hooks/pre-commit': `#!/bin/sh\n${line}\n`, [file]: file.endsWith('.pl') ? '1;\n' : 'pass\n' }, ['.git/hooks/pre-commit']);
    const result = await agentRun(w, [{ name: 'write', input: { path: file, content: planted(w.marker) } }]);
    userCommits(w);
    t.false(ran(w), `the agent's ${file} ran on the user's commit; agent output:\n${result.stdout}${result.stderr}`);
  });
}
