// Consent on the controlling terminal (issue 13, item 3): with stdin a terminal
// and stdout redirected (`zotbox run agent "x" --json | jq`), the question is asked
// on the terminal (/dev/tty) and answered there, and stdout carries only the run's
// output. Driven on a real pseudo-terminal, stdout going to a file.
import test, { type ExecutionContext } from 'ava';
import { readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { BIN, EXAMPLES_DIR } from '../fixtures/paths.js';
import { startPty, type PtySession } from '../fixtures/pty.js';
import { tempDir } from '../fixtures/temp.js';

const reviewer = path.join(EXAMPLES_DIR, 'code-reviewer');
const transcript = path.join(EXAMPLES_DIR, 'transcripts', 'code-reviewer.json');
const workspace = path.join(EXAMPLES_DIR, 'workspaces', 'sample-project');

function runWithStdoutInFile(t: ExecutionContext): { pty: PtySession; stdoutFile: string } {
  const root = realpathSync(tempDir(t, 'zb-consent-pty-'));
  const stdoutFile = path.join(root, 'stdout.ndjson');
  const pty = startPty(t, [process.execPath, BIN, 'run', reviewer, 'Review it', '--cwd', workspace, '--replay', transcript, '--confine', 'off', '--json'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ZOTBOX_HOME: path.join(root, 'state') },
    stdoutFile,
  });
  return { pty, stdoutFile };
}

const asked = (pty: PtySession) => pty.waitFor('the consent question', (screen) => screen.cursorLine().endsWith('Allow? [y/N]'));

test('with stdout redirected, consent is asked on the terminal; y runs the agent and stdout holds only its events', async (t) => {
  const { pty, stdoutFile } = runWithStdoutInFile(t);
  await asked(pty);
  t.true(
    pty.screen.lines().some((line) => line.startsWith('Agent code-reviewer@1.0.0 wants to run.')),
    pty.screen.text(),
  );
  pty.press('y\r');
  t.is(await pty.exited, 0, pty.screen.text());
  const lines = readFileSync(stdoutFile, 'utf8').trimEnd().split('\n');
  const events = lines.map((line) => JSON.parse(line) as { type: string; consent?: string; status?: string });
  t.like(events[0], { type: 'run.start', consent: 'prompt' });
  t.like(events.at(-1), { type: 'run.end', status: 'completed' });
  t.false(readFileSync(stdoutFile, 'utf8').includes('Allow?'), 'the question never reaches stdout');
});

test('with stdout redirected, n at the terminal refuses: nothing runs', async (t) => {
  const { pty, stdoutFile } = runWithStdoutInFile(t);
  await asked(pty);
  pty.press('n\r');
  t.is(await pty.exited, 1);
  t.true(
    pty.screen.lines().some((line) => line.includes('error[ZB_CONSENT_REFUSED]')),
    pty.screen.text(),
  );
  t.false(readFileSync(stdoutFile, 'utf8').includes('"run.start"'), 'no run started');
});

test('the consent prompt names the model and the host its requests go to', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-consent-pty-'));
  const pty = startPty(t, [process.execPath, BIN, 'run', reviewer, 'Review it', '--cwd', workspace, '--model', 'claude-sonnet-4-5'], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', ZOTBOX_HOME: path.join(root, 'state'), ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'http://models.example.test:8080/v1' },
  });
  await asked(pty);
  t.true(pty.screen.lines().includes('  model:    claude-sonnet-4-5 at models.example.test:8080 (what the agent reads goes there)'), pty.screen.text());
  // Left unanswered: the pty's teardown ends the command (answering is covered by the tests above).
});
