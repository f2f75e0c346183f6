// Class: the dangerous set's "changes how programs read their options" (it lists
// POSIXLY_CORRECT, with that reason) misses _POSIX2_VERSION, which coreutils reads
// for the same purpose: below 200112 it turns on the obsolete syntaxes (touch's
// leading timestamp operand, tail/sort/uniq's +N), so a program reads its arguments
// otherwise than the gate checked them. It passes both ways a variable reaches a
// command: permissions.env.read (the user's value) and the agent's own leading
// assignment (the agent's value).
// Shown with touch: the gate approves `touch 0101000070 notes.txt` as two files to
// create; touch instead reads 0101000070 as a date and sets notes.txt's time to
// 1970-01-01, creating nothing at the other name.
import test from 'ava';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { decisions, replay, world } from './open/world.js';

test('permissions.env.read may not name _POSIX2_VERSION', async (t) => {
  const w = world(t);
  const result = await replay(w, ['_POSIX2_VERSION'], { _POSIX2_VERSION: '199209' }, ['touch 0101000070 notes.txt'], ['touch']);
  t.log(result.stdout, result.stderr);
  t.not(result.status, 0, 'the agent was loaded and run');
  t.true(result.stderr.includes('ZB_MANIFEST_ENV_REFUSED'), 'the load did not refuse _POSIX2_VERSION as it refuses POSIXLY_CORRECT');
  // What it leads to, if it runs: the gate's two writes are not what happened.
  if (existsSync(path.join(w.ws, 'notes.txt'))) {
    t.true(existsSync(path.join(w.ws, '0101000070')), 'touch read an operand the gate checked as a file as a date');
    t.not(statSync(path.join(w.ws, 'notes.txt')).mtimeMs, 0, 'notes.txt got the time 1970-01-01 from an operand the gate checked as a file name');
  }
});

test('an agent may not set _POSIX2_VERSION before a command', async (t) => {
  const w = world(t);
  const result = await replay(w, [], {}, ['_POSIX2_VERSION=199209 touch 0101000070 notes.txt'], ['touch']);
  t.log(result.stdout, result.stderr);
  const [decision] = decisions(result);
  t.false(decision?.allowed ?? true, 'the gate allowed _POSIX2_VERSION=… as it denies POSIXLY_CORRECT=…');
  t.false(existsSync(path.join(w.ws, 'notes.txt')) && !existsSync(path.join(w.ws, '0101000070')), 'touch read 0101000070 as a date');
});
