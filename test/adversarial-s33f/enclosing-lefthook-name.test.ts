// Over-denial: above a write root, the enclosing reader takes ANY entry whose name starts with "lefthook" (the tool
// entry pattern `\.?lefthook.*`) for a hook manager's settings, although lefthook reads only
// [.]lefthook[-local].{yml,yaml,toml,json,jsonc}; a shell script or note of that name in a parent directory (here
// the lefthook-generated hook kept as `lefthook-hook.sh`) then refuses every writer of every project below it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import test from 'ava';
import { userGitEnvironment } from '../../src/host/executors/confine/control-locations.js';
import { currentControlLocations } from '../../src/host/executors/confine/protected-locations.js';
import { tempDir } from '../fixtures/temp.js';

test('a parent directory holding lefthook-hook.sh (no lefthook config) does not refuse every writer below it', (t) => {
  const parent = fs.realpathSync(tempDir(t, 'zb-s33f-parent-'));
  fs.writeFileSync(path.join(parent, 'lefthook-hook.sh'), '#!/bin/sh\ndir="$(git rev-parse --show-toplevel)"\n"$dir/node_modules/.bin/lefthook" run pre-commit\n');
  const ws = path.join(parent, 'ws');
  execFileSync('git', ['init', '-q', ws]);
  const controls = currentControlLocations([ws], [], userGitEnvironment(process.env, os.homedir()));
  t.false('unavailable' in controls, 'unavailable' in controls ? controls.unavailable : '');
});
