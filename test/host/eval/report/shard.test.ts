// Shard parsing, shards from the environment (ZOTBOX_SHARD, Kubernetes Indexed
// Jobs), and the stable hash that assigns a case to a shard.
import test from 'ava';
import fc from 'fast-check';
import { caseInShard, caseKey, parseShard, shardFromEnvironment, shardOfCase } from '../../../../src/host/eval/report/shard.js';

test('parseShard reads I/N', (t) => {
  t.deepEqual(parseShard('2/3', '--shard'), { index: 2, total: 3 });
  t.deepEqual(parseShard('1/1', '--shard'), { index: 1, total: 1 });
  t.deepEqual(parseShard('10000/10000', '--shard'), { index: 10000, total: 10000 });
});

const refused = test.macro((t, text: string) => {
  const error = t.throws(() => parseShard(text, 'ZOTBOX_SHARD'), { code: 'ZB_EVAL_SHARD_INVALID' } as never);
  t.like((error as unknown as { details: unknown }).details, { origin: 'ZOTBOX_SHARD', value: text });
  t.true(error.message.startsWith('ZOTBOX_SHARD '), 'the message names where the shard came from');
  t.regex(error.message, /Fix: /);
});
for (const text of ['0/3', '4/3', '1/0', '-1/3', '+1/3', '1/+3', ' 1/3', '1/3 ', '1 / 3', '1.0/3', '01/3', '1/03', '1', '1/', '/3', '1/3/3', 'a/b', '1/10001', '1/99999999999999999999', '', '１/３']) {
  test(`parseShard refuses ${JSON.stringify(text)}`, refused, text);
}

test('no shard variables: no shard', (t) => {
  t.is(shardFromEnvironment({}), null);
  t.is(shardFromEnvironment({ ZOTBOX_SHARD: '', ZOTBOX_SHARD_TOTAL: '', JOB_COMPLETION_INDEX: '' }), null);
});

test('ZOTBOX_SHARD names the shard; a bad value names ZOTBOX_SHARD', (t) => {
  t.deepEqual(shardFromEnvironment({ ZOTBOX_SHARD: '3/4' }), { index: 3, total: 4 });
  t.deepEqual(shardFromEnvironment({ ZOTBOX_SHARD: '1/1', JOB_COMPLETION_INDEX: '5' }), { index: 1, total: 1 }, 'ZOTBOX_SHARD wins over an Indexed Job');
  const error = t.throws(() => shardFromEnvironment({ ZOTBOX_SHARD: '5/4' }), { code: 'ZB_EVAL_SHARD_INVALID' } as never);
  t.like((error as unknown as { details: unknown }).details, { origin: 'ZOTBOX_SHARD' });
});

test('a Kubernetes Indexed Job: ZOTBOX_SHARD_TOTAL=N with JOB_COMPLETION_INDEX=K is shard K+1/N', (t) => {
  t.deepEqual(shardFromEnvironment({ ZOTBOX_SHARD_TOTAL: '4', JOB_COMPLETION_INDEX: '0' }), { index: 1, total: 4 });
  t.deepEqual(shardFromEnvironment({ ZOTBOX_SHARD_TOTAL: '4', JOB_COMPLETION_INDEX: '3' }), { index: 4, total: 4 });
});

const envRefused = test.macro((t, env: Record<string, string>, names: string[]) => {
  const error = t.throws(() => shardFromEnvironment(env), { code: 'ZB_EVAL_SHARD_INVALID' } as never);
  for (const name of names) t.true(error.message.includes(name), `the message names ${name}`);
  t.regex(error.message, /Fix: /);
});
test('JOB_COMPLETION_INDEX without ZOTBOX_SHARD_TOTAL is refused', envRefused, { JOB_COMPLETION_INDEX: '1' }, ['ZOTBOX_SHARD_TOTAL', 'JOB_COMPLETION_INDEX']);
test('ZOTBOX_SHARD_TOTAL without JOB_COMPLETION_INDEX is refused', envRefused, { ZOTBOX_SHARD_TOTAL: '3' }, ['ZOTBOX_SHARD_TOTAL', 'JOB_COMPLETION_INDEX']);
test('ZOTBOX_SHARD with ZOTBOX_SHARD_TOTAL is refused', envRefused, { ZOTBOX_SHARD: '1/2', ZOTBOX_SHARD_TOTAL: '2', JOB_COMPLETION_INDEX: '0' }, ['ZOTBOX_SHARD', 'ZOTBOX_SHARD_TOTAL']);
test('a completion index past the total is refused', envRefused, { ZOTBOX_SHARD_TOTAL: '3', JOB_COMPLETION_INDEX: '3' }, ['JOB_COMPLETION_INDEX']);
test('a negative completion index is refused', envRefused, { ZOTBOX_SHARD_TOTAL: '3', JOB_COMPLETION_INDEX: '-1' }, ['JOB_COMPLETION_INDEX']);
test('a completion index that is not a number is refused', envRefused, { ZOTBOX_SHARD_TOTAL: '3', JOB_COMPLETION_INDEX: '1.0' }, ['JOB_COMPLETION_INDEX']);
test('ZOTBOX_SHARD_TOTAL=0 is refused', envRefused, { ZOTBOX_SHARD_TOTAL: '0', JOB_COMPLETION_INDEX: '0' }, ['ZOTBOX_SHARD_TOTAL']);
test('ZOTBOX_SHARD_TOTAL over 10000 is refused', envRefused, { ZOTBOX_SHARD_TOTAL: '10001', JOB_COMPLETION_INDEX: '0' }, ['ZOTBOX_SHARD_TOTAL']);

test('caseKey is <suite>/<case id>', (t) => {
  t.is(caseKey('refactor', 'rename-symbol'), 'refactor/rename-symbol');
});

// Computed once (python3 hashlib: sha256, first 8 bytes big-endian, mod 3, + 1) and written here:
// if these change, shards cut by one zotbox no longer merge with shards cut by another.
test('the assignment of fixed keys to 3 shards is pinned', (t) => {
  t.is(shardOfCase('refactor/extract-fn', 3), 1);
  t.is(shardOfCase('smoke/hello', 3), 2);
  t.is(shardOfCase('refactor/rename-symbol', 3), 3);
  t.is(shardOfCase('ünïcode/ケース-1', 3), 1, 'the key is hashed as UTF-8');
  t.true(caseInShard('smoke/hello', { index: 2, total: 3 }));
  t.false(caseInShard('smoke/hello', { index: 1, total: 3 }));
  t.false(caseInShard('smoke/hello', { index: 3, total: 3 }));
});

test('every case key lands in exactly one of n shards (n = 1..8, 1000 keys)', (t) => {
  fc.assert(
    fc.property(fc.string({ unit: 'grapheme', minLength: 1 }), fc.string({ minLength: 1 }), fc.integer({ min: 1, max: 8 }), (suite, id, total) => {
      const key = caseKey(suite, id);
      let owners = 0;
      for (let index = 1; index <= total; index += 1) if (caseInShard(key, { index, total })) owners += 1;
      return owners === 1;
    }),
    { numRuns: 1000 },
  );
  t.is(shardOfCase('any', 1), 1, 'one shard holds every case');
});

test('shards of 1000 keys are roughly even (the hash spreads)', (t) => {
  const counts = [0, 0, 0, 0];
  for (let n = 0; n < 1000; n += 1) counts[shardOfCase(caseKey('suite', `case-${n}`), 4) - 1]! += 1;
  for (const count of counts) t.true(count > 180 && count < 320, `${count} of 1000 keys in one of 4 shards`);
});
