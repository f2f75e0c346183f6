// entry.pre parsing: trimmed, empty is nothing, `!command` is a command, other text a prompt.
import test from 'ava';
import { parseEntryPre } from '../../../src/host/run/entry-pre.js';

test('entry.pre is trimmed; whitespace is nothing; "!cmd" is a command; anything else is the first user turn', (t) => {
  t.deepEqual(parseEntryPre(''), { kind: 'none' });
  t.deepEqual(parseEntryPre(' \t\n '), { kind: 'none' });
  t.deepEqual(parseEntryPre('  \t!git status --short \n'), { kind: 'command', command: 'git status --short' });
  t.deepEqual(parseEntryPre('! ls'), { kind: 'command', command: 'ls' });
  t.deepEqual(parseEntryPre('!'), { kind: 'prompt', text: '!' });
  t.deepEqual(parseEntryPre('Summarize the open issues first.'), { kind: 'prompt', text: 'Summarize the open issues first.' });
});
