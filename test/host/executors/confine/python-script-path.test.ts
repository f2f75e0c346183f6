// The PATH a hook looks a bare python up on (python-script-path.ts), read through the shell reader: the interpreter
// word each python command's sys.path[0] mark carries. Expected words written out by hand.
import test from 'ava';
import { moduleEntriesOf } from '../../../../src/host/executors/confine/python-module-entries.js';
import { onScriptPath, scriptPathOf } from '../../../../src/host/executors/confine/python-script-path.js';
import { scriptWords } from '../../../../src/host/executors/confine/shell-command-words.js';

const context = { scriptFile: '/ws/.git/hooks/pre-commit', scriptDirectory: '/ws/.git/hooks', workingDirectory: '/ws', environment: { PATH: '/usr/bin:/bin', HOME: '/home/u' } };

/** The interpreter words of the script's Python marks, in order. */
function interpreters(text: string): string[] {
  const found: string[] = [];
  for (const word of scriptWords(text, context)) {
    const interpreter = word.kind === 'path' ? moduleEntriesOf(`/ws/${word.text}`)?.interpreter : undefined;
    if (interpreter !== undefined && !found.includes(interpreter)) found.push(interpreter);
  }
  return found;
}

const macro = test.macro((t, text: string, expected: readonly string[]) => {
  t.deepEqual(interpreters(text), [...expected]);
});

test('no PATH change: the bare name, looked up on the user PATH', macro, '#!/bin/sh\npython3 tools/check.py\n', ['python3']);
test('a venv activated puts its bin/ first', macro, '#!/bin/sh\n. .venv/bin/activate\npython tools/check.py\n', ['python (PATH=.venv/bin:$PATH)']);
test('source spelling and an absolute venv', macro, '#!/bin/bash\nsource /opt/venv/bin/activate\npython3 -m tools.check\n', ['python3 (PATH=/opt/venv/bin:$PATH)']);
test('order counts: a python run before activate is on the user PATH', macro, '#!/bin/sh\npython a.py\n. .venv/bin/activate\npython b.py\n', ['python', 'python (PATH=.venv/bin:$PATH)']);
test('deactivate puts the PATH back', macro, '#!/bin/sh\n. .venv/bin/activate\ndeactivate\npython b.py\n', ['python']);
test('export PATH with $PWD (where the hook runs)', macro, '#!/bin/sh\nexport PATH="$PWD/.venv/bin:$PATH"\npython tools/check.py\n', ['python (PATH=./.venv/bin:$PATH)']);
test('PATH=... then export PATH on its own line', macro, '#!/bin/sh\nPATH=.venv/bin:$PATH\nexport PATH\npython tools/check.py\n', ['python (PATH=.venv/bin:$PATH)']);
test('a PATH for one command only', macro, '#!/bin/sh\nPATH=.venv/bin:$PATH python tools/check.py\npython other.py\n', ['python (PATH=.venv/bin:$PATH)', 'python']);
// (The script never assigns PATH itself here, so $PATH is spelled out as the user's.)
test('a PATH through env for one command', macro, '#!/bin/sh\nenv PATH=.venv/bin:$PATH python tools/check.py\n', ['python (PATH=.venv/bin:/usr/bin:/bin)']);
test('a PATH entry zotbox cannot spell out is unknown, not skipped', macro, '#!/bin/sh\nexport PATH="$(npm root)/.bin:$PATH"\npython tools/check.py\n', ['python (PATH=?:$PATH)']);
test('a venv activated from a variable it cannot spell out is unknown', macro, '#!/bin/sh\n. "$VENV/bin/activate"\npython tools/check.py\n', ['python (PATH=?:$PATH)']);
test('PATH appended: the user PATH first', macro, '#!/bin/bash\nPATH+=":.venv/bin"\npython tools/check.py\n', ['python (PATH=$PATH:.venv/bin)']);
test('uv run and poetry run: the in-project .venv, else unknown', macro, '#!/bin/sh\nuv run python tools/check.py\npoetry run python3 -m tools.check\n', [
  'python (PATH=.venv/bin:?)',
  'python3 (PATH=.venv/bin:?)',
]);
test('hatch run: unknown', macro, '#!/bin/sh\nhatch run python tools/check.py\n', ['python (PATH=?)']);

test('the word round-trips; a word for the user PATH alone is the bare name; other words are none', (t) => {
  t.deepEqual(scriptPathOf(onScriptPath('python3', ['.venv/bin', '$PATH'])), { name: 'python3', entries: ['.venv/bin', '$PATH'] });
  t.is(onScriptPath('python3', ['$PATH']), 'python3');
  t.is(scriptPathOf('python3'), undefined);
  t.is(scriptPathOf('.venv/bin/python'), undefined);
  t.is(scriptPathOf('node (PATH=x)'), undefined);
});
