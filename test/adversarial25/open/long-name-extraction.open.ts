// Finding: a package that loads and is consented to can hold an entry whose name
// (up to 4096 bytes, archive rules) is too long below the extraction directory
// (the process's temp dir plus "zotbox-image-XXXXXX/"). Every command then fails
// with ZB_INTERNAL_BUG ("unexpected failure: ENAMETOOLONG"), and each command makes
// a new partial extraction (the failed one is kept until the process exits, since
// the extraction's root is never recorded): a package of up to 256 MiB copied into
// the temp directory once per command.
import test from 'ava';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { agentDir, replayFile, results, runAgent, world } from './world.js';

test('a long entry name that loaded fails every command with an internal error and a new extraction each time', async (t) => {
  const w = world(t);
  const tmp = path.join(w.root, 'a-temp-directory-with-a-longer-path');
  mkdirSync(tmp);
  const agent = agentDir(w, { name: 'longname', read: ['${workspace}'], write: ['${workspace}'], files: { 'skills/pdf/SKILL.md': 'Fills forms.\n' } });
  // The longest name the agent's folder can hold (its absolute path under PATH_MAX), which the extraction cannot.
  const room = 4095 - agent.length - 1;
  t.true(tmp.length + '/zotbox-image-XXXXXX/'.length + room > 4095, 'the extraction prefix is longer than the agent folder');
  let relative = 'skills/pdf';
  while (relative.length + 201 + 20 < room) relative += `/${'d'.repeat(200)}`;
  mkdirSync(path.join(agent, relative), { recursive: true });
  relative += `/${'f'.repeat(room - relative.length - 1)}`;
  writeFileSync(path.join(agent, relative), 'x');
  const ws = path.join(w.root, 'ws');
  mkdirSync(ws);
  const ran = await runAgent(
    w,
    agent,
    replayFile(w, 'long', [
      { name: 'bash', input: { command: 'ls /zotbox/skills/pdf' } },
      { name: 'bash', input: { command: 'ls /zotbox/skills/pdf' } },
    ]),
    ws,
    { TMPDIR: tmp },
  ).done;
  const summaries = results(ran).map((result) => String(result['summary']));
  const extractions = new Set(summaries.flatMap((summary) => /zotbox-image-[A-Za-z0-9]{6}/u.exec(summary)?.[0] ?? []));
  t.deepEqual(
    { internalFailures: summaries.filter((summary) => summary.includes('unexpected failure')).length, newExtractionPerCommand: extractions.size > 1 },
    // Refused at load or consent, or a clear error; and never more than one extraction for the run.
    { internalFailures: 0, newExtractionPerCommand: false },
    summaries.join('\n').slice(0, 600),
  );
});
