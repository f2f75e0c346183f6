// Review s51z, warm init `reset_times` (native/warm-init.c) probe: after each call the init sets its start time on
// /tmp, /dev/shm and every directory below them on the sandbox's own tmpfs. The workspace (a write scope) lies below
// /tmp here (the sandbox world's temp directory), bound over the sandbox's tmpfs: its directories must keep the times
// the host gave them. Not a repro: passes today (held); to run it, copy the built .js to NAME.zz.test.js.
import { mkdirSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { warmRun } from '../adversarial-s48w/warm-run.js';

test("the init never sets the times of a write scope's directories below /tmp", async (t) => {
  const r = warmRun(t);
  t.true(r.world.ws.startsWith('/tmp/'), r.world.ws);
  const first = await r.call('mkdir -p sub/deeper && ls -d /tmp/*/');
  t.is(first.exitCode, 0, first.stderr);
  // Times no clock gives: a reset would replace them with the init's start time.
  const mark = new Date('2040-01-01T00:00:00Z');
  mkdirSync(path.join(r.world.ws, 'untouched'), { recursive: true });
  for (const dir of [path.join(r.world.ws, 'untouched'), path.join(r.world.ws, 'sub/deeper'), path.join(r.world.ws, 'sub'), r.world.ws, path.dirname(r.world.ws)]) utimesSync(dir, mark, mark);
  const second = await r.call('true');
  t.is(second.exitCode, 0, second.stderr);
  t.deepEqual(r.used, ['warm', 'reused']);
  for (const dir of [r.world.ws, path.join(r.world.ws, 'sub'), path.join(r.world.ws, 'sub/deeper'), path.join(r.world.ws, 'untouched'), path.dirname(r.world.ws)]) {
    t.is(statSync(dir).mtimeMs, mark.getTime(), dir);
  }
});
