// A bare command name on the PATH a hook set (script-path-programs.ts): the files it runs as, read through the shell
// reader; then end to end through toolFileReferences with a real venv (python3 -m venv --without-pip), an editable
// install's .pth and pip's console script written as pip writes them. Expected files written out by hand.
import test from 'ava';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { moduleEntriesOf } from '../../../../src/host/executors/confine/python-module-entries.js';
import { scriptWords } from '../../../../src/host/executors/confine/shell-command-words.js';
import { toolFileReferences } from '../../../../src/host/executors/confine/tool-file-references.js';
import { findControlLocation } from '../../../../src/policy/protected-files.js';
import { tempDir } from '../../../fixtures/temp.js';

const context = { scriptFile: '/ws/.git/hooks/pre-commit', scriptDirectory: '/ws/.git/hooks', workingDirectory: '/ws', environment: { PATH: '/usr/bin:/bin', HOME: '/home/u' } };

/** The words of the script that are run, as written. */
const runWords = (text: string) => scriptWords(text, context).flatMap((word) => (word.kind === 'path' && word.runs === true ? [word.text] : []));

const runs = test.macro((t, text: string, expected: readonly string[]) => {
  t.deepEqual(runWords(text), [...expected]);
});

test('after activate, a bare name runs from the venv bin/ as well', runs, '#!/bin/sh\n. .venv/bin/activate\nmypkg-lint\n', ['.', '.venv/bin/activate', 'mypkg-lint', '.venv/bin/mypkg-lint']);
// (The PATH's own entries are run words too: what the shell reader already protects as directories put on PATH.)
test('a PATH set for one command: that command only', runs, '#!/bin/sh\nPATH=.venv/bin:$PATH exec mypkg-lint\nother-tool\n', ['mypkg-lint', '.venv/bin', '.venv/bin/mypkg-lint', 'other-tool']);
test('export PATH with $PWD', runs, '#!/bin/sh\nexport PATH="$PWD/.venv/bin:$PATH"\nexec mypkg-lint --fix\n', ['./.venv/bin', 'mypkg-lint', '.venv/bin/mypkg-lint']);
test('every entry zotbox can spell out counts, in order; the user PATH and an unknown entry are left to the name', runs, '#!/bin/sh\nexport PATH="tools:$VENV/bin:$PATH:/opt/x/bin"\nlint\n', [
  'tools',
  '/opt/x/bin',
  'lint',
  'tools/lint',
  '/opt/x/bin/lint',
]);
test('no PATH change: the name as written only', runs, '#!/bin/sh\nmypkg-lint\n', ['mypkg-lint']);
test('builtins, paths and python are not looked up here', runs, '#!/bin/sh\n. .venv/bin/activate\necho hi\n./tools/x\npython -V\n', ['.', '.venv/bin/activate', './tools/x', 'python']);
test("deactivate (activate's own function) puts the PATH back", runs, '#!/bin/sh\n. .venv/bin/activate\ndeactivate\nmypkg-lint\n', ['.', '.venv/bin/activate', 'deactivate', 'mypkg-lint']);
for (const runner of ['uv', 'poetry', 'pdm', 'pipenv']) test(`${runner} run NAME: the in-project .venv/bin/NAME`, runs, `#!/bin/sh\n${runner} run mypkg-lint src\n`, [runner, '.venv/bin/mypkg-lint']);
test("a runner option's value may be the command: both looked up", runs, '#!/bin/sh\nuv run --with ruff mypkg-lint src\n', ['uv', '.venv/bin/ruff', '.venv/bin/mypkg-lint']);
test('hatch run: its venv is unknown, the name left as written', runs, '#!/bin/sh\nhatch run mypkg-lint\n', ['hatch']);

test('uv run X.py: X.py runs with the venv python (a sys.path[0] mark naming that interpreter)', (t) => {
  const interpreters = scriptWords('#!/bin/sh\nuv run tools/check.py\n', context).flatMap((word) => {
    const interpreter = word.kind === 'path' ? moduleEntriesOf(`/ws/${word.text}`) : undefined;
    return interpreter === undefined ? [] : [`${interpreter.interpreter} ${interpreter.script ?? ''}`];
  });
  t.deepEqual(interpreters, ['python (PATH=.venv/bin:?) /ws/tools/check.py']);
});

/** A project with its own venv, the project installed editable (src/), pip's console script mypkg-lint, and `hook` as pre-commit. */
function project(t: Parameters<typeof tempDir>[0], hook: string): { ws: string; protects(relative: string): boolean; unresolved: readonly string[] } {
  const ws = realpathSync(tempDir(t, 'zb-pyconsole-'));
  execFileSync('/usr/bin/python3', ['-m', 'venv', '--without-pip', path.join(ws, '.venv')], { stdio: 'ignore' });
  const lib = path.join(ws, '.venv', 'lib');
  writeFileSync(path.join(lib, readdirSync(lib)[0]!, 'site-packages', '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  mkdirSync(path.join(ws, 'src', 'mypkg'), { recursive: true });
  mkdirSync(path.join(ws, 'tools'));
  mkdirSync(path.join(ws, '.git', 'hooks'), { recursive: true });
  for (const name of ['__init__.py', 'lint.py', 'other.py']) writeFileSync(path.join(ws, 'src', 'mypkg', name), '');
  writeFileSync(path.join(ws, 'tools', 'check.py'), 'from mypkg.lint import main\n');
  const script = path.join(ws, '.venv', 'bin', 'mypkg-lint');
  writeFileSync(script, `#!${path.join(ws, '.venv/bin/python')}\nimport sys\nfrom mypkg.lint import main\nsys.exit(main())\n`);
  chmodSync(script, 0o755);
  writeFileSync(path.join(ws, '.git', 'hooks', 'pre-commit'), hook, { mode: 0o755 });
  const environment = { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/nonexistent-home' };
  const found = toolFileReferences([], [ws], { environment, hookDirectories: [{ directory: path.join(ws, '.git/hooks'), top: ws }] });
  return { ws, protects: (relative) => findControlLocation(path.join(ws, relative), found.locations) !== undefined, unresolved: found.unresolved };
}

for (const hook of [
  '#!/bin/sh\n. .venv/bin/activate\nmypkg-lint\n',
  '#!/bin/sh\nPATH=.venv/bin:$PATH exec mypkg-lint\n',
  '#!/bin/sh\nexport PATH="$PWD/.venv/bin:$PATH"\nexec mypkg-lint\n',
  '#!/bin/sh\nuv run mypkg-lint\n',
  '#!/bin/sh\npoetry run mypkg-lint\n',
  '#!/bin/sh\nuv run tools/check.py\n',
])
  test(`what the console script imports through the editable install is protected, the rest of the package is not: ${JSON.stringify(hook)}`, (t) => {
    const found = project(t, hook);
    t.true(found.protects('src/mypkg/lint.py'));
    t.false(found.protects('src/mypkg/other.py'));
    t.deepEqual(found.unresolved, []);
  });

test("a name on the hook's PATH whose file is not in the venv: nothing of the project's protected, nothing unresolved", (t) => {
  const found = project(t, '#!/bin/sh\n. .venv/bin/activate\nsomething-else\n');
  t.false(found.protects('src/mypkg/lint.py'));
  t.deepEqual(found.unresolved, []);
});

test('a console script on the PATH larger than zotbox reads: unresolved', (t) => {
  const found = project(t, '#!/bin/sh\n. .venv/bin/activate\nmypkg-lint\n');
  t.deepEqual(found.unresolved, []);
  const script = path.join(found.ws, '.venv', 'bin', 'mypkg-lint');
  // Past the 1 MiB cap on a control file zotbox reads (git-inventory.ts).
  writeFileSync(script, `${readFileSync(script, 'utf8')}#${'x'.repeat(1024 * 1024)}\n`);
  const again = toolFileReferences([], [found.ws], {
    environment: { PATH: '/usr/bin:/bin', HOME: '/nonexistent-home' },
    hookDirectories: [{ directory: path.join(found.ws, '.git/hooks'), top: found.ws }],
  });
  t.true(
    again.unresolved.some((why) => why.includes('.venv/bin/mypkg-lint is larger than zotbox reads')),
    again.unresolved.join('\n'),
  );
});
