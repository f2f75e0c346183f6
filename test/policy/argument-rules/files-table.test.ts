// Hand-written decisions for the file readers and writers (table-files.ts).
import test from 'ava';
import { checkCases, type GateCase } from './gate-cases.js';

const OUTSIDE = 'ZB_POLICY_PATH_OUTSIDE_SCOPE';
const ARGUMENT = 'ZB_POLICY_SHELL_ARGUMENT';
const HARDLINK = 'ZB_POLICY_PATH_HARDLINK';

export const FILE_CASES: readonly GateCase[] = [
  { command: 'cat a.txt', expect: 'allow' },
  { command: 'cat -n a.txt b.txt', expect: 'allow' },
  { command: 'cat $R/r.txt', expect: 'allow' },
  { command: 'cat $S/secret.txt', expect: OUTSIDE },
  { command: 'cat links/to-s', expect: OUTSIDE, why: 'a link inside W to the secret' },
  { command: 'cat --number a.txt', expect: 'allow' },
  { command: 'cat --num a.txt', expect: ARGUMENT, why: 'abbreviation' },
  { command: 'cat -z a.txt', expect: ARGUMENT, why: 'unknown option' },
  { command: 'cp a.txt c.txt', expect: 'allow' },
  { command: 'cp $R/r.txt c.txt', expect: 'allow' },
  { command: 'cp a.txt $R/c.txt', expect: OUTSIDE },
  { command: 'cp -l $R/r.txt y', expect: HARDLINK },
  { command: 'cp --link $R/r.txt y', expect: HARDLINK },
  { command: 'cp -l a.txt y', expect: 'allow' },
  { command: 'cp -s $S/secret.txt y', expect: OUTSIDE },
  { command: 'cp -rL box copy', expect: OUTSIDE },
  { command: 'cp -r --dereference box copy', expect: OUTSIDE },
  { command: 'cp -r box copy', expect: 'allow' },
  { command: 'ln $R/r.txt y', expect: HARDLINK },
  { command: 'ln -s $S/secret.txt l', expect: OUTSIDE },
  { command: 'ln -s ../S/secret.txt l', expect: OUTSIDE },
  { command: 'ln -s a.txt l', expect: 'allow' },
  { command: 'ln -s $S/secret.txt', expect: OUTSIDE },
  { command: 'ln -s $R/r.txt dir', expect: 'allow' },
];

test('file readers and writers decide as written by hand', (t) => {
  checkCases(t, FILE_CASES);
});
