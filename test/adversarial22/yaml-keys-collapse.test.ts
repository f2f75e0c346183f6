// Issue 22 review, item 7: "Both formats refuse a key given twice in one object".
// The YAML reader's uniqueKeys compares key nodes by type and value, so `1` and
// "1", `true` and "true", `~` and "" are different keys to it; toJS then turns each
// into the same string key and keeps the last, silently. In a suite that shows where
// values are free-form (file_json's `equals`): a reviewer reads one mapping with two
// keys, zotbox compares against an object with one. JSON suites cannot spell this
// (JSON keys are strings, and duplicates are refused). Stated by hand: such a
// suite is refused with ZB_EVAL_SUITE_INVALID, as a duplicate key is.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadSuite } from '../../src/host/eval/load-suite.js';
import { tempDir } from '../fixtures/temp.js';

for (const [title, mapping] of [
  ['1 and "1"', '{ 1: false, "1": true }'],
  ['true and "true"', '{ true: false, "true": true }'],
  ['~ and ""', '{ ~: false, "": true }'],
  // JSON suites refuse keys that differ only by case (a case-folding reader sees one key): so does YAML.
  ['approved and Approved', '{ approved: false, Approved: true }'],
] as const) {
  test(`a YAML mapping with the keys ${title} is refused, not collapsed to its last`, (t) => {
    const folder = tempDir(t, 'zb-yaml-');
    const file = path.join(folder, 'suite.yaml');
    writeFileSync(
      file,
      ['zotbox_eval: 1', 'agent: agent', 'cases:', '  - id: a', '    prompt: go', '    expect:', `      - file_json: { path: out.json, json_path: $.flags, equals: ${mapping} }`, ''].join('\n'),
    );
    const error = t.throws(() => loadSuite(file, folder));
    t.is((error as { code?: string } | undefined)?.code, 'ZB_EVAL_SUITE_INVALID');
  });
}
