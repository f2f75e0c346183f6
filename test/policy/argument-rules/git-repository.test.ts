// The repository a git command works in is found without following what the
// repository could plant: a config that is a FIFO or a link is refused, never
// read (a FIFO would block the gate, a link could lead to /dev/zero).
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { checkProgramArguments } from '../../../src/policy/argument-rules/check-arguments.js';
import { compileScopes } from '../../../src/policy/scopes.js';
import { tempDir } from '../../fixtures/temp.js';

function repository(t: Parameters<typeof tempDir>[0]): { ws: string; decide: () => string } {
  const ws = realpathSync(tempDir(t, 'zb-git-repository-'));
  for (const name of ['objects', 'refs']) mkdirSync(path.join(ws, '.git', name), { recursive: true });
  writeFileSync(path.join(ws, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  const scopes = compileScopes({ read: [ws], write: [ws] }, { workspace: ws, agentData: path.join(ws, 'data') });
  return {
    ws,
    decide: () => {
      const checked = checkProgramArguments('git', ['status'], { scopes, cwd: ws });
      return checked.ok ? 'allow' : checked.code;
    },
  };
}

test('a plain config is read and allowed', (t) => {
  const { ws, decide } = repository(t);
  writeFileSync(path.join(ws, '.git', 'config'), '[core]\n\tbare = false\n');
  t.is(decide(), 'allow');
});

test('a config that is a FIFO is refused without blocking', (t) => {
  const { ws, decide } = repository(t);
  t.is(spawnSync('mkfifo', [path.join(ws, '.git', 'config')]).status, 0);
  t.is(decide(), 'ZB_POLICY_SHELL_ARGUMENT');
});

test('a config that is a link is refused, even to /dev/zero', (t) => {
  const { ws, decide } = repository(t);
  symlinkSync('/dev/zero', path.join(ws, '.git', 'config'));
  t.is(decide(), 'ZB_POLICY_SHELL_ARGUMENT');
});
