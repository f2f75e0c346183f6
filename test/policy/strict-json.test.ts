import test from 'ava';
import fc from 'fast-check';
import { foldKey, parseStrictJson, type JsonValue } from '../../src/policy/strict-json.js';

const parse = (text: string) => parseStrictJson(Buffer.from(text, 'utf8'));

const rejected = test.macro((t, text: string | Buffer, path: string, message: RegExp) => {
  const result = typeof text === 'string' ? parse(text) : parseStrictJson(text);
  t.false(result.ok);
  if (!result.ok) {
    t.is(result.path, path);
    t.regex(result.message, message);
  }
});

test('a duplicate key is rejected at its path', rejected, '{"a":1,"a":2}', '$.a', /appears twice/);
test('a duplicate nested object (zot would merge it) is rejected', rejected, '{"permissions":{"fs":{}},"permissions":{"bash":{}}}', '$.permissions', /appears twice/);
test('keys differing only in ASCII case are rejected', rejected, '{"name":"a","NAME":"b"}', '$.NAME', /differ only in case/);
test('a long-s spelling of a key is rejected next to the plain one', rejected, '{"permissions":{},"permiſſions":{}}', '$["permiſſions"]', /differ only in case/);
test('a Kelvin-sign spelling of a key is rejected next to the plain one', rejected, '{"k":1,"\u212a":2}', '$["\u212a"]', /differ only in case/);
test('duplicates are found at any depth', rejected, '{"a":[{"x":1},{"x":1,"x":2}]}', '$.a[1].x', /appears twice/);
test('a BOM is rejected', rejected, Buffer.from('\ufeff{}', 'utf8'), '$', /byte-order mark/);
test('invalid UTF-8 is rejected', rejected, Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), '$', /UTF-8/);
test('a lone high surrogate escape is rejected', rejected, '{"a":"\\ud800"}', '$.a', /surrogate/);
test('a lone low surrogate escape is rejected', rejected, '{"a":"\\udc00x"}', '$.a', /surrogate/);
test('trailing commas are rejected', rejected, '{"a":1,}', '$', /expected a key/);
test('trailing content is rejected', rejected, '{} {}', '$', /after the JSON value/);
test('a control character inside a string is rejected', rejected, '{"a":"x\ny"}', '$.a', /control character/);
test('single quotes are rejected', rejected, "{'a':1}", '$', /double quotes/);
test('a leading zero is rejected', rejected, '{"a":01}', '$.a', /invalid number/);
test(
  'deep nesting is rejected without exhausting the stack',
  rejected,
  `${'['.repeat(100_000)}${']'.repeat(100_000)}`,
  '$[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]',
  /nesting deeper/,
);

test('number literals are recorded by path, so integer fields can demand integer literals', (t) => {
  const result = parse('{"zotfile":1.0,"model":{"min_context":1e3},"n":[-0,2]}');
  t.true(result.ok);
  if (result.ok) {
    t.deepEqual(Object.fromEntries(result.numberLiterals), { '$.zotfile': '1.0', '$.model.min_context': '1e3', '$.n[0]': '-0', '$.n[1]': '2' });
  }
});

test('"__proto__" is an ordinary key', (t) => {
  const result = parse('{"__proto__":{"polluted":true}}');
  t.true(result.ok);
  if (result.ok) t.deepEqual(Object.keys(result.value as object), ['__proto__']);
  t.is(({} as Record<string, unknown>)['polluted'], undefined);
});

test('folding covers ASCII case, long s and the Kelvin sign', (t) => {
  t.is(foldKey('PermiſſionS'), 'permissions');
  t.is(foldKey('\u212a'), 'k');
});

function hasFoldCollision(value: JsonValue): boolean {
  if (Array.isArray(value)) return value.some(hasFoldCollision);
  if (value === null || typeof value !== 'object') return false;
  const keys = Object.keys(value);
  return new Set(keys.map(foldKey)).size !== keys.length || Object.values(value).some(hasFoldCollision);
}

test('any JSON without folded-key collisions parses exactly as JSON.parse reads it (property)', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (value) => {
        fc.pre(!hasFoldCollision(value as JsonValue));
        const text = JSON.stringify(value);
        const result = parse(text);
        return result.ok && JSON.stringify(result.value) === JSON.stringify(JSON.parse(text));
      }),
      { numRuns: 2000 },
    ),
  );
});

test('random text never throws, and anything accepted is what JSON.parse reads (property)', (t) => {
  t.notThrows(() =>
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[\s{}[\]":,0-9a-z\\.eE+-]{0,40}$/)), (text) => {
        const result = parse(text);
        if (!result.ok) return true;
        return JSON.stringify(result.value) === JSON.stringify(JSON.parse(text));
      }),
      { numRuns: 5000 },
    ),
  );
});
