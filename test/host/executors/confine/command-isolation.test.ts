// How a call's commands start: each pipeline of a line looks at the scopes again.
import test from 'ava';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { confinedIsolation, unconfinedIsolation } from '../../../fixtures/isolation.js';
import { tempDir } from '../../../fixtures/temp.js';
import type { CommandLaunch } from '../../../../src/host/executors/confine/command-isolation.js';

const command = (ws: string) => ({ cwd: ws, program: '/usr/bin/env', invokedPath: '/usr/bin/env', argv0: 'env', args: [] });

for (const [name, isolate] of [
  ['confined', confinedIsolation],
  ['unconfined', unconfinedIsolation],
] as const) {
  test(`${name}: a repository an earlier pipeline made has its drivers switched off for the next`, async (t) => {
    const ws = path.join(realpathSync(tempDir(t, 'zb-isolation-')), 'ws');
    mkdirSync(ws);
    const call = await isolate({ readRoots: [ws], writeRoots: [ws] }).beginCall();
    call.beginPipeline(2); // two stages: each spawned, so its environment shows
    const first = call.launch(command(ws)) as CommandLaunch;
    await first.done(undefined);
    t.false(Object.values(first.env).includes('filter.late.clean'));
    // What an earlier command of the line did: a repository under another name, with a filter.
    mkdirSync(path.join(ws, 'r'));
    writeFileSync(path.join(ws, 'r', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(path.join(ws, 'r', 'config'), '[filter "late"]\n\tclean = cat\n');
    call.beginPipeline(2); // two stages: each spawned, so its environment shows
    const second = call.launch(command(ws)) as CommandLaunch;
    await second.done(undefined);
    const overridden = Object.entries(second.env).filter(([key, value]) => key.startsWith('GIT_CONFIG_KEY_') && value === 'filter.late.clean');
    t.is(overridden.length, 1);
    t.throws(() => call.finish(), { code: 'ZB_CONFINEMENT_GIT_PROGRAM' } as never);
  });
}
