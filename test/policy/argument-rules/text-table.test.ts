// Hand-written decisions for the text and search tools and the archive tools
// (table-text.ts, table-archive.ts). The grep cases hold for egrep and fgrep, the
// awk cases for every awk: one list, run under each name.
import test from 'ava';
import path from 'node:path';
import { checkProgramArguments } from '../../../src/policy/argument-rules/check-arguments.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { gateWorld } from '../../fixtures/gate-world.js';
import { checkCases } from './gate-cases.js';
import { ARCHIVE_CASES, TEXT_CASES } from './text-cases.js';

const OUTSIDE = 'ZB_POLICY_PATH_OUTSIDE_SCOPE';

test('text and search tools decide as written by hand', (t) => {
  checkCases(t, TEXT_CASES);
});

test('archive and copy tools decide as written by hand', (t) => {
  checkCases(t, ARCHIVE_CASES);
});

test('a search with no operand is checked on the working directory, even where cd could not lead', (t) => {
  const world = gateWorld(t);
  // The command runs in W, which this agent may not read: only R is in scope.
  const scopes = compileScopes({ read: [world.R], write: [] }, { workspace: world.W, agentData: path.join(world.root, 'data') });
  const decide = (program: string, ...args: string[]) => {
    const checked = checkProgramArguments(program, args, { scopes, cwd: world.W });
    return checked.ok ? 'allow' : checked.code;
  };
  t.is(decide('grep', 'foo'), 'allow', 'standard input');
  t.is(decide('grep', '-r', 'foo'), OUTSIDE);
  t.is(decide('grep', '-r', '-e', 'foo'), OUTSIDE);
  t.is(decide('grep', '-r', 'foo', world.R), 'allow');
  t.is(decide('rg', 'foo'), OUTSIDE);
  t.is(decide('rg', '--files'), OUTSIDE);
  t.is(decide('rg', '-e', 'foo'), OUTSIDE);
  t.is(decide('rg', 'foo', world.R), 'allow');
  t.is(decide('find', '-name', 'x'), OUTSIDE);
  t.is(decide('find', world.R, '-name', 'x'), 'allow');
});
