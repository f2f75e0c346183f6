// glibc's tracing helpers run the program in their arguments with a library loaded
// into it (adv27c's advice): allowlisted, they are still never allowed, as the
// loader is, whatever program they are given. Stubs stand for them where the
// machine lacks them (glibc's tools are an optional package). By hand.
import test from 'ava';
import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { writeStubProgram } from '../fixtures/stub-program.js';
import { tempDir } from '../fixtures/temp.js';

const TRACERS = ['sotruss', 'memusage', 'xtrace'];

test('sotruss, memusage and xtrace are never allowed, even allowlisted, whatever they run', (t) => {
  const root = realpathSync(tempDir(t, 'zb-tracers-'));
  const bin = path.join(root, 'bin');
  const ws = path.join(root, 'ws');
  for (const directory of [bin, ws]) mkdirSync(directory);
  for (const name of [...TRACERS, 'ls']) writeStubProgram(path.join(bin, name));
  const scopes = compileScopes({ read: ['${workspace}'], write: [] }, { workspace: ws, agentData: path.join(root, 'data') });
  const context: ShellContext = { mode: 'allowlist', allow: [...TRACERS, 'ls'], scopes, searchPath: [bin], trustedDirectories: [bin], confined: true };
  t.true(decideShellCommand('ls', context).allow, 'the world lets ls run');
  for (const tracer of TRACERS) {
    const decision = decideShellCommand(`${tracer} ls`, context);
    t.false(decision.allow, tracer);
    if (!decision.allow) t.is(decision.code, 'ZB_POLICY_SHELL_NOT_ALLOWED', tracer);
  }
});
