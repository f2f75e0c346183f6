// A hook that is a link whose target does not exist yet (`.git/hooks/pre-commit -> ../../scripts/pre-commit`, the
// script not written yet or renamed): the reader follows linked hooks only where they lead now, so the target is not
// protected and the agent can create it; the user's next `git commit` runs it through the link.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { userGitEnvironment } from '../../src/host/executors/confine/control-locations.js';
import { currentControlLocations, refuseProtectedWrite } from '../../src/host/executors/confine/protected-locations.js';
import { tempDir } from '../fixtures/temp.js';

test('a dangling linked hook: the agent may not create the file it points to', (t) => {
  const root = fs.realpathSync(tempDir(t, 'zb-s33f-'));
  execFileSync('git', ['init', '-q', root]);
  fs.symlinkSync('../../scripts/pre-commit', path.join(root, '.git/hooks/pre-commit'));
  const controls = currentControlLocations([root], [], userGitEnvironment(process.env, os.homedir()));
  let refusal: string | undefined;
  try {
    refuseProtectedWrite(path.join(root, 'scripts/pre-commit'), [root], controls);
  } catch (error) {
    refusal = (error as Error).message;
  }
  // Premise: once the file exists, git runs it as the hook.
  fs.mkdirSync(path.join(root, 'scripts'));
  fs.writeFileSync(path.join(root, 'scripts/pre-commit'), '#!/bin/sh\ntouch RAN\n', { mode: 0o755 });
  execFileSync('git', ['-C', root, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '--allow-empty', '-m', 'x']);
  t.true(fs.existsSync(path.join(root, 'RAN')), 'premise: git commit runs the linked hook');
  t.regex(refusal ?? 'allowed', /write denied/u);
});
