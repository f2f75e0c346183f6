// Hand-written decisions for find (find-expression.ts): starting points read, or
// written with -delete; every primary's value classified; -exec's command
// checked as a command of its own.
import test from 'ava';
import { checkCases } from './gate-cases.js';
import { FIND_CASES } from './find-cases.js';

test('find decides as written by hand', (t) => {
  checkCases(t, FIND_CASES);
});
