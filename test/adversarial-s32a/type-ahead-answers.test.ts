// adv27 (issue 27 §6): an answer must be given to the prompt it answers. In a run that is
// not a chat nothing reads the terminal until the prompt opens, so keys typed while the
// run streamed (an "a" and Enter meant for something else, a paste) wait in the input
// queue, and the prompt takes them as its answer the moment it is drawn: "always",
// before the user has read what it asks. Safe outcome: input that was waiting before
// the prompt was shown is discarded, never an answer; here the input then ends, so No.
import test from 'ava';
import { PassThrough } from 'node:stream';
import { terminalApprover } from '../../src/cli/approval-prompt.js';
import type { CliIo } from '../../src/cli/command-spec.js';

test('keys typed before the approval prompt opened do not answer it', async (t) => {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  const stderr = Object.assign(new PassThrough(), { isTTY: true });
  stderr.resume();
  const io = { stdin, stderr, stdout: new PassThrough() } as unknown as CliIo;
  // Typed during the run, before any prompt: waiting in the terminal's input queue.
  stdin.write('a\r');
  stdin.end();
  const ask = terminalApprover(io, { before: () => undefined, after: () => undefined, interrupted: () => undefined });
  const answer = await ask({ id: 1, program: { name: 'head', program: '/usr/bin/head' }, argv: [['head', 'a.txt']] }, new AbortController().signal);
  t.is(answer, 'no');
});

test('keys typed before the prompt are dropped, and the answer typed after it counts', async (t) => {
  const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  const stderr = Object.assign(new PassThrough(), { isTTY: true });
  stderr.resume();
  const io = { stdin, stderr, stdout: new PassThrough() } as unknown as CliIo;
  stdin.write('a\r');
  const ask = terminalApprover(io, { before: () => undefined, after: () => undefined, interrupted: () => undefined });
  const answer = ask({ id: 1, program: { name: 'head', program: '/usr/bin/head' }, argv: [['head', 'a.txt']] }, new AbortController().signal);
  stdin.write('o\r');
  t.is(await answer, 'once');
});
