// tsconfig.json and deno.jsonc are JSON with comments: comments and trailing commas go, strings stay as written, and a
// text that is no JSON with comments is an error (the caller refuses), never half an object.
import test from 'ava';
import { parseJsonc } from '../../../../src/host/executors/confine/jsonc.js';

test('comments and trailing commas are dropped outside strings', (t) => {
  const text = '\uFEFF{\n  // line comment\n  "compilerOptions": { /* block\n comment */ "baseUrl": ".", "paths": { "@a/*": ["src/*",], }, },\n}\n';
  t.deepEqual(parseJsonc(text), { value: { compilerOptions: { baseUrl: '.', paths: { '@a/*': ['src/*'] } } } });
});

test('comment and comma characters inside strings are kept as written', (t) => {
  const text = '{ "url": "https://x.invalid/*y*/", "list": "a, }", "quote": "say \\"//\\"", // end\n "n": [1,\n\n 2 ,\n] }';
  t.deepEqual(parseJsonc(text), { value: { url: 'https://x.invalid/*y*/', list: 'a, }', quote: 'say "//"', n: [1, 2] } });
});

test('a text that is no JSON with comments is an error', (t) => {
  for (const text of ['{ "a": 1 /* open', '{ "a": }', '{ a: 1 }', '', '{ "a": 1,, }']) t.true('error' in parseJsonc(text), text);
});
