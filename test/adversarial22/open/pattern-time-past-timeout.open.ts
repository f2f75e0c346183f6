// Issue 22 review, item 4: each suite pattern is matched within 1,000 ms "from
// when the thread takes it up", on one pattern thread the whole eval shares, and a
// run's calls are matched after the run as `settle()` drains them; the case's
// timeout_s stops the run, never the matching. So an agent can keep every call's
// match just under the bound and make as many calls as it likes (up to 10,000
// waiting at once): each costs the shared thread up to a second, the case goes on
// for hours past its timeout_s, and every other case's text_matches and call
// matchers wait in line behind it. Reproduced with the CLI: a case with
// `timeout_s: 2` and 150 denied bash calls of 35,000 characters each against the
// ordinary matcher `command: "curl.*evil"` (quadratic, ~170 ms a call here) ran
// 26.5 s and passed; with --max-runs 1 the other case waited for it.
// This test depends on time by nature (timeout_s is a time): 60 calls of at
// least ~40 ms each need well over the case's 1 s. Stated by hand: a case whose
// run and checks together took longer than its timeout_s does not pass.
import test from 'ava';
import { evalIn, evalWorld, writeSuite, writeTranscript } from '../../fixtures/eval-world.js';

const CALLS = 60;

test('a case cannot pass after its verdicts took longer than its timeout_s', async (t) => {
  const world = evalWorld(t);
  const command = 'curl '.repeat(7000);
  const replay = writeTranscript(world, 'flood', [...Array.from({ length: CALLS }, (_, i) => ({ tool: { name: 'bash', input: { command: `${command}#${i}` } } })), { text: 'done' }]);
  const suite = writeSuite(world, 'flood', {
    cases: [{ id: 'flood', prompt: 'go', replay, timeout_s: 1, max_turns: CALLS + 1, expect: [{ tool_not_called: { tool: 'bash', command: 'curl.*evil' } }] }],
  });
  const started = performance.now();
  const report = await evalIn(world, [suite], { maxRuns: 1 });
  const took = performance.now() - started;
  const result = report.cases[0];
  t.log(`the eval took ${Math.round(took)} ms; the case's timeout_s is 1 s`);
  t.not(result?.status, 'passed', JSON.stringify(result?.runs[0]?.expectations));
});
