// adv27 (issue 27 §6): a key the user did not mean as an answer must not answer "always".
// Up-arrow sends ESC [ A; the prompt reads every byte and takes the "A" as [a]lways.
// A user who presses Up (to scroll back to the command) and then Enter approves the
// program for the rest of the session. Safe outcome: escape sequences are not answers,
// so Up + Enter is No, the default.
import test from 'ava';
import { PassThrough } from 'node:stream';
import { terminalApprover } from '../../src/cli/approval-prompt.js';
import type { CliIo } from '../../src/cli/command-spec.js';

function terminal(): { io: CliIo; stdin: PassThrough } {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  const stderr = Object.assign(new PassThrough(), { isTTY: true });
  stderr.resume();
  return { io: { stdin, stderr, stdout: new PassThrough() } as unknown as CliIo, stdin };
}

const request = { id: 1, program: { name: 'head', program: '/usr/bin/head' }, argv: [['head', '-n', '1', 'a.txt']] };

for (const [key, bytes] of [
  ['Up (normal cursor keys)', '\u001b[A'],
  ['Up (application cursor keys)', '\u001bOA'],
  ['Home (application mode)', '\u001bOH'],
] as const) {
  test(`${key} then Enter at the approval prompt is not an answer: No`, async (t) => {
    const { io, stdin } = terminal();
    const ask = terminalApprover(io, { before: () => undefined, after: () => undefined, interrupted: () => undefined });
    const answer = ask(request, new AbortController().signal);
    stdin.write(`${bytes}\r`);
    t.is(await answer, 'no');
  });
}

// fix27: whole sequences are dropped, also when split across reads; a letter typed on its own still answers.
for (const [what, chunks, expected] of [
  ['a bracketed paste holding "a"', ['\u001b[200~a\r\u001b[201~', '\r'], 'no'],
  ['a paste split across reads', ['\u001b[20', '0~a', '\r\u001b[2', '01~\r'], 'no'],
  ['an OSC reply holding "a"', ['\u001b]11;rgb:aaaa/aaaa/aaaa\u001b\\\r'], 'no'],
  ['Alt+a', ['\u001ba\r'], 'no'],
  ['Up split across reads', ['\u001b', '[', 'A', '\r'], 'no'],
  ['"a" then Enter', ['a', '\r'], 'session'],
  ['Up, then "o" and Enter', ['\u001b[A', 'o\r'], 'once'],
] as const) {
  test(`approval prompt keys: ${what} is ${expected}`, async (t) => {
    const { io, stdin } = terminal();
    const ask = terminalApprover(io, { before: () => undefined, after: () => undefined, interrupted: () => undefined });
    const answer = ask(request, new AbortController().signal);
    for (const chunk of chunks) stdin.write(chunk);
    t.is(await answer, expected);
  });
}
