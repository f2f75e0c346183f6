// Suite files: YAML and JSON, the schema, and every way a suite file is refused.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isZotboxError } from '../../../src/errors.js';
import { loadSuite } from '../../../src/host/eval/load-suite.js';
import { tempDir } from '../../fixtures/temp.js';

const YAML_SUITE = `zotbox_eval: 1
agent: ../agents/reviewer
replay: transcripts/a.json
defaults:
  max_turns: 5
cases:
  - id: first
    prompt: Review it.
    expect:
      - status: completed
      - text_contains: problems
      - file_json: { path: package.json, json_path: $.name, equals: demo }
  - id: second
    prompt: |
      Two lines
      of prompt.
    threshold: 0.5
`;

function write(t: Parameters<typeof tempDir>[0], name: string, text: string): string {
  const directory = tempDir(t);
  writeFileSync(path.join(directory, name), text);
  return directory;
}

test('a YAML suite loads: name from the file, agent path from the suite folder, defaults kept', (t) => {
  const directory = write(t, 'reviewer.yaml', YAML_SUITE);
  const loaded = loadSuite('reviewer.yaml', directory);
  t.is(loaded.name, 'reviewer');
  t.is(loaded.agentReference, path.join(path.dirname(directory), 'agents', 'reviewer'));
  t.is(loaded.suite.cases.length, 2);
  t.is(loaded.suite.defaults.max_turns, 5);
  t.is(loaded.suite.cases[1]?.prompt, 'Two lines\nof prompt.\n');
  t.deepEqual(loaded.suite.cases[0]?.expect[2], { file_json: { path: 'package.json', json_path: '$.name', equals: 'demo' } });
});

test('a JSON suite loads, with its own name and a GitHub agent kept as written', (t) => {
  const suite = { zotbox_eval: 1, name: 'nightly', agent: 'github:acme/agents/reviewer@v1', model: 'claude-sonnet-4-5', cases: [{ id: 'a', prompt: 'p' }] };
  const directory = write(t, 'x.json', JSON.stringify(suite));
  const loaded = loadSuite(path.join(directory, 'x.json'), '/');
  t.is(loaded.name, 'nightly');
  t.is(loaded.agentReference, 'github:acme/agents/reviewer@v1');
});

const refused = test.macro((t, name: string, text: string, message: RegExp) => {
  const directory = write(t, name, text);
  const error = t.throws(() => loadSuite(name, directory));
  t.true(isZotboxError(error));
  t.is((error as { code?: string }).code, 'ZB_EVAL_SUITE_INVALID');
  t.regex(error.message, message);
});

test('duplicate case ids', refused, 's.yaml', 'zotbox_eval: 1\nagent: a\ncases:\n  - { id: x, prompt: p }\n  - { id: x, prompt: q }\n', /case id "x" is used twice/);
test('an unknown top-level key', refused, 's.yaml', 'zotbox_eval: 1\nagent: a\nagnet: b\ncases: [{ id: x, prompt: p }]\n', /agnet/);
test('an unknown case key', refused, 's.yaml', 'zotbox_eval: 1\nagent: a\ncases: [{ id: x, prompt: p, expect_text: y }]\n', /expect_text/);
test('a version this zotbox does not read', refused, 's.yaml', 'zotbox_eval: 2\nagent: a\ncases: [{ id: x, prompt: p }]\n', /zotbox_eval/);
test('no cases', refused, 's.yaml', 'zotbox_eval: 1\nagent: a\ncases: []\n', /cases/);
test('a workspace path leaving the suite folder', refused, 's.yaml', 'zotbox_eval: 1\nagent: a\ncases: [{ id: x, prompt: p, workspace: ../../etc }]\n', /cases\.0\.workspace/);
test('an absolute grader path', refused, 's.yaml', 'zotbox_eval: 1\nagent: a\ncases: [{ id: x, prompt: p, expect: [{ grader: /tmp/g.js }] }]\n', /grader/);
test('a malformed digest pin', refused, 's.yaml', 'zotbox_eval: 1\nagent: a\ndigest: sha256:abc\ncases: [{ id: x, prompt: p }]\n', /digest/);
test('a case id with a slash', refused, 's.yaml', 'zotbox_eval: 1\nagent: a\ncases: [{ id: a/b, prompt: p }]\n', /cases\.0\.id/);
test('duplicate YAML keys', refused, 's.yaml', 'zotbox_eval: 1\nagent: a\nagent: b\ncases: [{ id: x, prompt: p }]\n', /not valid YAML/);
test('a custom YAML tag', refused, 's.yaml', 'zotbox_eval: 1\nagent: !!js/function a\ncases: [{ id: x, prompt: p }]\n', /not valid YAML/);
test('YAML that is not YAML', refused, 's.yaml', 'zotbox_eval: 1\n  agent: [\n', /not valid YAML/);
test('JSON that is not JSON', refused, 's.json', '{"zotbox_eval": 1,', /not valid JSON at \$ \(line 1, column 19\)/);
// Issue 22 §7: JSON.parse keeps the last of two keys; a reviewer reading the first would see another suite.
test(
  'duplicate JSON keys, named with their line',
  refused,
  's.json',
  '{"zotbox_eval": 1, "agent": "a",\n "cases": [{"id": "x", "prompt": "p", "threshold": 1, "threshold": 0}]}',
  /not valid JSON at \$\.cases\[0\]\.threshold \(line 2, column 55\): the key "threshold" appears twice/,
);
test('duplicate JSON keys at the top level', refused, 's.json', '{"zotbox_eval": 1, "agent": "a", "agent": "b", "cases": []}', /\$\.agent \(line 1, column 34\)/);
test('an extension that names no format', refused, 's.txt', 'zotbox_eval: 1\n', /neither \.yaml, \.yml nor \.json/);
test('a file name that cannot name the suite', refused, ' odd name.yaml', 'zotbox_eval: 1\nagent: a\ncases: [{ id: x, prompt: p }]\n', /Add name:/);

test('a YAML alias bomb is refused, not expanded', (t) => {
  const lines = ['zotbox_eval: 1', 'agent: a', 'a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 12; i++) lines.push(`a${i}: &a${i} [${Array.from({ length: 10 }, () => `*a${i - 1}`).join(', ')}]`);
  lines.push('cases: [{ id: x, prompt: p }]');
  const directory = write(t, 'bomb.yaml', `${lines.join('\n')}\n`);
  const error = t.throws(() => loadSuite('bomb.yaml', directory));
  t.is((error as { code?: string }).code, 'ZB_EVAL_SUITE_INVALID');
});

test('a missing suite file says it cannot be read', (t) => {
  const error = t.throws(() => loadSuite('nope.yaml', tempDir(t)));
  t.is((error as { code?: string }).code, 'ZB_EVAL_SUITE_INVALID');
  t.regex(error.message, /does not exist \(ENOENT\)/);
});

// Issue 27 §3: a suite error names the line and column, and a misspelt key the one it was meant to be.
test(
  'an unknown case key names its line and column and the key it is closest to',
  refused,
  's.yaml',
  'zotbox_eval: 1\nagent: a\ncases:\n  - id: x\n    prompt: p\n    expct: []\n',
  /unknown key "expct" \(did you mean "expect"\?\) at cases\.0\.expct \(line 6, column 5\)\. Fix: Rename it to expect\./,
);
test(
  'an unknown top-level key is placed and guessed',
  refused,
  's.yaml',
  'zotbox_eval: 1\nagnet: a\ncases: [{ id: x, prompt: p }]\n',
  /unknown key "agnet" \(did you mean "agent"\?\) at agnet \(line 2, column 1\)/,
);
test(
  'a misspelt expectation kind is named with its line and the kind it is closest to',
  refused,
  's.yaml',
  'zotbox_eval: 1\nagent: a\ncases:\n  - id: x\n    prompt: p\n    expect:\n      - text_contain: hi\n',
  /unknown kind "text_contain" \(did you mean "text_contains"\?\) at cases\.0\.expect\.0\.text_contain \(line 7, column 9\)/,
);
test(
  'a wrong value inside a known expectation kind is placed at the value',
  refused,
  's.yaml',
  'zotbox_eval: 1\nagent: a\ncases:\n  - id: x\n    prompt: p\n    expect:\n      - max_turns: -1\n',
  /at cases\.0\.expect\.0\.max_turns \(line 7, column 20\)/,
);
test(
  'a JSON suite error has its line too',
  refused,
  's.json',
  '{"zotbox_eval": 1, "agent": "a",\n "cases": [{"id": "x", "prompt": "p",\n   "treshold": 1}]}',
  /unknown key "treshold" \(did you mean "threshold"\?\) at cases\.0\.treshold \(line 3, column 4\)/,
);
test(
  'a key far from every known one gets no guess',
  refused,
  's.yaml',
  'zotbox_eval: 1\nagent: a\nzzzzzzzz: 1\ncases: [{ id: x, prompt: p }]\n',
  /unknown key "zzzzzzzz" at zzzzzzzz \(line 3, column 1\)\. Fix: Remove it/,
);

test('each case knows its line in the suite file', (t) => {
  const directory = write(t, 'reviewer.yaml', YAML_SUITE);
  t.deepEqual(loadSuite('reviewer.yaml', directory).caseLines, [7, 13]);
});
