// Finding (adv21h): with --confine off, a recursive read of a directory that holds the
// zotbox state directory reads it. docs/permissions.md and security.md promise that
// "path decisions and the sandbox keep the state directory out of" a scope that
// contains it (a workspace of $HOME, where the state directory is by default); the
// sandbox masks it, but unconfined the gate decides only the named operand ("."), and
// `grep -r` walks into ~/.local/state/zotbox: every agent's sessions, data and consents.
import test from 'ava';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { replayedAgent, runReplayed, scratch } from './harness.js';

function sessionText(stateDirectory: string, agentPrefix: string): string {
  const agents = path.join(stateDirectory, 'agents');
  let text = '';
  for (const entry of readdirSync(agents).filter((name) => name.startsWith(agentPrefix))) {
    const sessions = path.join(agents, entry, 'sessions');
    for (const file of readdirSync(sessions)) text += readFileSync(path.join(sessions, file), 'utf8');
  }
  return text;
}

test("--confine off: grep -r over a workspace holding the state directory does not read other agents' sessions", async (t) => {
  const root = scratch(t, 'staterec');
  const home = path.join(root, 'home');
  mkdirSync(home, { recursive: true });
  // The default place, ~/.local/state/zotbox (XDG_STATE_HOME spelled out: the default reads the test process's home).
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_STATE_HOME: path.join(home, '.local', 'state') };
  const state = path.join(home, '.local', 'state', 'zotbox');
  const allowlist = { mode: 'allowlist', allow: ['grep', 'ls'] };
  // A trusted agent's session holds something private (what its model said).
  const trusted = replayedAgent(root, allowlist, [{ name: 'bash', input: { command: 'ls' } }], ['${workspace}'], 'trusted');
  const secretTurn = JSON.parse(readFileSync(trusted.replay, 'utf8')) as { turns: { content: { type: string; text?: string }[] }[] };
  secretTurn.turns.at(-1)!.content[0]!.text = 'private notes: TRUSTED-SECRET-4711';
  writeFileSync(trusted.replay, JSON.stringify(secretTurn));
  const first = await runReplayed(root, home, trusted.agent, trusted.replay, [], env);
  t.is(first.status, 0, first.stderr);
  t.true(sessionText(state, 's34h-trusted-').includes('TRUSTED-SECRET-4711'));
  // Another agent, run unconfined in the same workspace, reads recursively.
  const stranger = replayedAgent(root, allowlist, [{ name: 'bash', input: { command: "grep -r -a -h -o -E 'TRUSTED-SECRE[T]-[0-9]+' ." } }], ['${workspace}'], 'stranger');
  const run = await runReplayed(root, home, stranger.agent, stranger.replay, ['--confine', 'off'], env);
  t.log(run.stdout, run.stderr);
  const seen = sessionText(state, 's34h-stranger-');
  t.false(seen.includes('TRUSTED-SECRET-4711'), "the stranger's unconfined grep read the trusted agent's session in the state directory");
});
