// `zotbox eval` reporters agree (issue 22 §6): every file reporter renders the one
// report, its large texts cut to documented sizes, and the files are written all
// or none.
import test from 'ava';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EvalReport } from '../../src/host/eval/eval-report.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { evalWorld, writeSuite, writeTranscript, type EvalWorld } from '../fixtures/eval-world.js';

const env = (world: EvalWorld) => ({ ZOTBOX_HOME: world.state, ZOTBOX_AGENT_CONSENT: '1' });

function bigAnswerSuite(world: EvalWorld): string {
  const long = writeTranscript(world, 'long', [{ text: `${'x'.repeat(1024 * 1024)}END` }]);
  return writeSuite(world, 'long', {
    defaults: { workspace: 'fixture' },
    cases: [
      { id: 'passes', prompt: 'talk', replay: long, expect: [{ status: 'completed' }] },
      { id: 'fails', prompt: 'talk', replay: long, expect: [{ text_contains: 'never said' }] },
    ],
  });
}

test('a 1 MiB answer is cut to 64 KiB with its marker in the JSON report, and JUnit and Markdown are written from the same report', async (t) => {
  const world = evalWorld(t);
  const out = path.join(world.root, 'out');
  const result = await runCliCaptured(['eval', bigAnswerSuite(world), '--confine', 'off', '--reporter', `line,json=${out}/report.json,junit=${out}/junit.xml,markdown=${out}/summary.md`], {
    env: env(world),
    cwd: world.root,
  });
  t.is(result.status, 1, result.stderr);
  const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as EvalReport;
  const text = report.cases.find((c) => c.id === 'passes')!.runs[0]!.final_text;
  t.is(text, `${'x'.repeat(65_536)}\n…[zotbox: cut, ${1024 * 1024 + 3 - 65_536} more characters]`);
  t.is(report.totals.failed, 1);
  t.regex(readFileSync(path.join(out, 'junit.xml'), 'utf8'), /failures="1"/u);
  t.regex(readFileSync(path.join(out, 'summary.md'), 'utf8'), /fails/u);
});

test('a report file that cannot be written fails the eval with nothing written: no reporter says anything the others do not', async (t) => {
  const world = evalWorld(t);
  const out = path.join(world.root, 'out');
  const blocker = path.join(world.root, 'not-a-directory');
  writeFileSync(blocker, 'a file where the JSON report directory should be\n');
  const result = await runCliCaptured(['eval', bigAnswerSuite(world), '--confine', 'off', '--reporter', `line,junit=${out}/junit.xml,json=${blocker}/report.json,markdown=${out}/summary.md`], {
    env: env(world),
    cwd: world.root,
  });
  t.not(result.status, 0);
  t.regex(result.stderr, /ZB_IO_FAILED/u);
  t.regex(result.stderr, /not-a-directory/u);
  t.false(existsSync(path.join(out, 'junit.xml')), 'JUnit is not written when the JSON report cannot be');
  t.false(existsSync(path.join(out, 'summary.md')), 'Markdown is not written when the JSON report cannot be');
  t.deepEqual(existsSync(out) ? readdirSync(out) : [], [], 'no temp file is left behind');
});
