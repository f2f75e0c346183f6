// Hand-written decisions for interpreters and shells (table-interpreters.ts):
// a script in the read scopes with literal arguments runs; code on the command
// line or standard input, and options that load other code, are denied.
import test from 'ava';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { decideShellCommand } from '../../../src/policy/shell-decision.js';
import { gateWorld } from '../../fixtures/gate-world.js';
import { checkCases, each } from './gate-cases.js';
import { ALIAS_CASES, ALIAS_NAMES, DENO_BUN_CASES, NODE_CASES, PERL_RUBY_PHP_LUA_CASES, PYTHON_CASES, SHELL_CASES } from './interpreter-cases.js';

test('python runs scripts and modules, never code on the command line', (t) => {
  checkCases(t, PYTHON_CASES);
});

test('node runs scripts and tests, never code on the command line or preloaded modules', (t) => {
  checkCases(t, NODE_CASES);
});

test('perl, ruby, php and lua run scripts only', (t) => {
  checkCases(t, PERL_RUBY_PHP_LUA_CASES);
});

test('deno runs without granted permissions and bun runs scripts and tests; neither installs or evaluates', (t) => {
  checkCases(t, DENO_BUN_CASES);
});

test('bash, sh, dash and zsh run script files only', (t) => {
  checkCases(t, each(['bash', 'sh', 'dash', 'zsh'], SHELL_CASES));
});

test('ksh and fish run script files only', (t) => {
  // The shared gate world does not list them: allow them here, with stubs where this machine lacks them.
  const world = gateWorld(t);
  const stubs = path.join(world.root, 'more-stubs');
  mkdirSync(stubs);
  for (const name of ['ksh', 'fish']) {
    writeFileSync(path.join(stubs, name), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(stubs, name), 0o755);
  }
  const context = { ...world.context, allow: [...world.context.allow, 'ksh', 'fish'], searchPath: [...world.context.searchPath, stubs] };
  const mismatches = each(['ksh', 'fish'], SHELL_CASES).flatMap((c) => {
    const decision = decideShellCommand(world.expand(c.command), context);
    const actual = decision.allow ? 'allow' : decision.code;
    return actual === c.expect ? [] : [`${c.command}: expected ${c.expect}, got ${actual}${decision.allow ? '' : ` (${decision.reason})`}`];
  });
  t.deepEqual(mismatches, []);
});

test('an interpreter under another name (python3.12, nodejs, perl5.36, mksh...) gets the rule of the one it stands for', (t) => {
  const world = gateWorld(t);
  const stubs = path.join(world.root, 'alias-stubs');
  mkdirSync(stubs);
  for (const name of ALIAS_NAMES) {
    writeFileSync(path.join(stubs, name), '#!/bin/sh\nexit 0\n');
    chmodSync(path.join(stubs, name), 0o755);
  }
  const extend = (context: typeof world.context) => ({ ...context, allow: [...context.allow, ...ALIAS_NAMES], searchPath: [stubs, ...context.searchPath] });
  const mismatches = ALIAS_CASES.flatMap((c) => {
    const decision = decideShellCommand(world.expand(c.command), extend(c.world === 'unconfined' ? world.unconfined : world.context));
    const actual = decision.allow ? 'allow' : decision.code;
    return actual === c.expect ? [] : [`${c.command}: expected ${c.expect}, got ${actual}${decision.allow ? '' : ` (${decision.reason})`}`];
  });
  t.deepEqual(mismatches, []);
});
