// find's arguments: options, starting points, then an expression of one-dash
// primaries and operators, which getopt cannot read. Classifies each value for
// value-kinds.ts; a primary or operator not listed is denied.
import { deny as no, type Check } from '../shell-check.js';
import type { ParsedArguments } from './parse-arguments.js';
import type { ArgumentContext } from './value-kinds.js';

export function parseFindExpression(name: string, _args: readonly string[], _context: ArgumentContext): Check<ParsedArguments> {
  return no('ZB_POLICY_SHELL_ARGUMENT', `${name}: not yet understood.`);
}
