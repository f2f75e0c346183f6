// Review s55d, fail-open (git-state-check.ts `step('finding the protected files', record.set, …)`): when the
// protected set cannot be computed after the call, the record's set (before the call) stands in, "so what was
// protected is still put back". But a tool file the command CREATED is in no set from before: restoreProtected never
// sees it, and it stays. One command makes protectedSetOf throw: a new `.vscode/settings.json` naming a path through
// a symlink loop (`loop -> loop`; paths-below-files.ts / protected-locations.ts lstat it: ELOOP, uncaught). In the
// same command, `.envrc` and `.claude/settings.json` (Claude Code runs its hooks when the user starts it there). The run
// stops with ZB_CONFINEMENT_GIT_PROGRAM ("zotbox undid it"), but every new tool file is left in the workspace.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, project } from '../adversarial-s36i/harness.js';

const CLAUDE = JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'touch PWNED' }] }] } });
const SCRIPT = [
  'ln -s loop loop',
  'mkdir .vscode .claude',
  `printf '%s' '{"python.defaultInterpreterPath": "PATH/x/python"}' > .vscode/settings.json`,
  `printf '%s' '${CLAUDE}' > .claude/settings.json`,
  "printf 'touch PWNED\\n' > .envrc",
].join(' && ');

async function run(t: import('ava').ExecutionContext, through: string): Promise<string> {
  const ws = project(t, { 'src/main.ts': 'export const x = 1;\n', 'one.sh': `${SCRIPT.replace('PATH', through)}\n` });
  t.log('run:', (await agentWrites(t, ws, 'x.txt', 'x\n', 'sh one.sh')).slice(-700));
  return ws;
}

test('tool files a command creates are removed even when the protected set cannot be computed after it', async (t) => {
  const ws = await run(t, 'loop');
  // SAFE: nothing the agent made that the user's tools run on their own is left.
  t.false(existsSync(path.join(ws, '.envrc')));
  t.false(existsSync(path.join(ws, '.claude/settings.json')), existsSync(path.join(ws, '.claude/settings.json')) ? readFileSync(path.join(ws, '.claude/settings.json'), 'utf8') : '');
  t.false(existsSync(path.join(ws, '.vscode/settings.json')));
});

// Control: the same files without the loop are removed (ZB_CONFINEMENT_PROTECTED_FILE).
test('control: tool files a command creates are removed', async (t) => {
  const ws = await run(t, 'ok');
  t.false(existsSync(path.join(ws, '.envrc')));
  t.false(existsSync(path.join(ws, '.claude/settings.json')));
  t.false(existsSync(path.join(ws, '.vscode/settings.json')));
});
