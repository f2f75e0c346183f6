// Issue 22 review: suites refuse a duplicate key (item 7) because JSON.parse keeps
// the last one and a reader that keeps the first (or folds case, as zot's Go
// decoder does: src/policy/strict-json.ts) sees another document. file_json reads
// the agent's file with JSON.parse, so an agent that writes
// {"approved": false, "approved": true} passes `$.approved equals true`, while
// the file says false to any first-wins reader downstream. Stated by hand: a
// file_json verdict on a file with a duplicate key (exact or case-folded) must not
// pass; it fails with a reason naming the key.
import test from 'ava';
import { evalIn, evalWorld, writeSuite, writeTranscript } from '../fixtures/eval-world.js';

for (const [title, content] of [
  ['an exact duplicate', '{"approved": false, "approved": true}\n'],
  // A case-insensitive decoder that keeps the last match (Go's encoding/json) reads false here.
  ['a duplicate that differs by case', '{"approved": true, "Approved": false}\n'],
  ['a duplicate in a nested object', '{"review": {"approved": false, "approved": true}}\n'],
] as const) {
  test(`file_json does not pass on ${title} key`, async (t) => {
    const world = evalWorld(t);
    const replay = writeTranscript(world, 'dup', [{ tool: { name: 'write', input: { path: 'result.json', content } } }, { text: 'done' }]);
    const jsonPath = content.includes('review') ? '$.review.approved' : '$.approved';
    const suite = writeSuite(world, 'dup', {
      cases: [{ id: 'approves', prompt: 'go', workspace: 'fixture', replay, expect: [{ file_json: { path: 'result.json', json_path: jsonPath, equals: true } }] }],
    });
    const report = await evalIn(world, [suite]);
    const verdict = report.cases[0]?.runs[0]?.expectations.find((e) => e.kind === 'file_json');
    t.truthy(verdict);
    t.false(verdict?.passed, verdict?.reason);
    t.regex(verdict?.reason ?? '', /approved/i);
  });
}
