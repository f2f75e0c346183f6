import test from 'ava';
import { commandEnvironment } from '../../../src/host/executors/command-environment.js';
import { readPassedEnvironment } from '../../../src/host/executors/passed-environment.js';
import { envReadRefusal } from '../../../src/policy/env-read.js';

test('only the listed names that are set are taken, with their values; an unset one is absent, an empty one is set', (t) => {
  const env = { A_TOKEN: 'secret-1', EMPTY: '', OTHER: 'not listed', GITHUB_TOKEN: undefined };
  t.deepEqual({ ...readPassedEnvironment(['A_TOKEN', 'EMPTY', 'MISSING', 'GITHUB_TOKEN'], env) }, { A_TOKEN: 'secret-1', EMPTY: '' });
  t.deepEqual({ ...readPassedEnvironment([], env) }, {});
});

test('a name no agent may read is refused where the values are taken too, whatever called it', (t) => {
  t.like(
    t.throws(() => readPassedEnvironment(['GITHUB_TOKEN', 'LD_PRELOAD'], { LD_PRELOAD: '/tmp/x.so' })),
    { code: 'ZB_MANIFEST_ENV_REFUSED', details: { variable: 'LD_PRELOAD' } },
  );
});

test('a value holding a NUL byte is refused without showing it', (t) => {
  const error = t.throws(() => readPassedEnvironment(['A_TOKEN'], { A_TOKEN: 'top\u0000secret' }));
  t.like(error, { code: 'ZB_OPTION_INVALID', details: { variable: 'A_TOKEN' } });
  t.false(error.message.includes('secret'));
});

test('a name like __proto__ is a plain variable, not the prototype', (t) => {
  const passed = readPassedEnvironment(['__proto__'], JSON.parse('{"__proto__": "v"}') as Record<string, string>);
  t.deepEqual(Object.keys(passed), ['__proto__']);
  t.is(commandEnvironment('/h', {}, undefined, passed)['__proto__'], 'v');
});

test('every name the fixed command environment sets is one no agent may read', (t) => {
  const fixed = commandEnvironment('/h', {}, { filters: ['lfs'], diffs: ['d'], merges: ['m'], externalDiff: true });
  for (const name of Object.keys(fixed)) t.not(envReadRefusal(name), undefined, name);
});

test('passed variables reach the command and never override a fixed one or its own assignment', (t) => {
  // PATH and LANG can never be listed (refused above); passed here by hand to pin the order.
  const env = commandEnvironment('/h', { MODE: 'agent' }, undefined, { GITHUB_TOKEN: 'tok', PATH: '/evil', LANG: 'ja_JP.SJIS', MODE: 'user' });
  t.is(env['GITHUB_TOKEN'], 'tok');
  t.is(env['PATH'], '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
  t.is(env['LANG'], 'C.UTF-8');
  t.is(env['MODE'], 'agent');
});
