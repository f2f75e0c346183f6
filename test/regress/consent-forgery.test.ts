// Issue 9: agent v1 declared the write scope ${agent_data}/../consents and wrote
// a valid-looking receipt for v2 (fs read and write of /), which then ran
// without a prompt. Both halves are closed: the scope is refused at load, and a
// receipt this installation did not sign is never trusted.
import test from 'ava';
import { copyFileSync, existsSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { ensureAgentDirectory } from '../../src/host/consent/agent-directory.js';
import { agentDirectoryName } from '../../src/host/consent/agent-identity.js';
import { receiptPath, type ConsentSummary } from '../../src/host/consent/receipt.js';
import { runAgent, type RunAgentOptions } from '../../src/host/run/run-agent.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

interface Setup {
  readonly root: string;
  readonly v1: string;
  readonly v2: string;
  readonly transcript: string;
}

function setup(t: Parameters<typeof tempDir>[0]): Setup {
  const root = realpathSync(tempDir(t, 'zb-forgery-'));
  const agent = (version: string, fs: object) => {
    const directory = path.join(root, `v${version}`);
    mkdirSync(directory);
    writeFileSync(path.join(directory, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'helper', version, permissions: { fs } }));
    writeFileSync(path.join(directory, 'AGENT.md'), 'You help.');
    return directory;
  };
  const transcript = path.join(root, 'hello.json');
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'replay', turns: [{ content: [{ type: 'text', text: 'Hello.' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } }] }));
  agent('0', { read: ['${workspace}'] }); // an agent of the same name, harmless: approving it gives the installation its key
  return { root, v1: agent('1', { read: ['${workspace}'], write: ['${agent_data}/../consents'] }), v2: agent('2', { read: ['/'], write: ['/'] }), transcript };
}

async function collect(options: RunAgentOptions): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of runAgent(options)) events.push(event);
  return events;
}

const run = (s: Setup, reference: string, stateDirectory: string, over: Pick<RunAgentOptions, 'yes' | 'remember' | 'stdin' | 'stdout'> = {}): RunAgentOptions => ({
  reference,
  cwd: s.root,
  replayFile: s.transcript,
  prompt: 'hi',
  yes: true,
  remember: true, // the approvals below are saved as receipts
  env: {},
  stateDirectory,
  confine: 'off',
  ...over,
});

test('runAgent refuses ${agent_data}/../consents at load, before consent, also when the state directory is reached through a symlink', async (t) => {
  const s = setup(t);
  mkdirSync(path.join(s.root, 'state-real'));
  symlinkSync(path.join(s.root, 'state-real'), path.join(s.root, 'state'));
  const error = await t.throwsAsync(collect(run(s, s.v1, path.join(s.root, 'state'))), { code: 'ZB_SCOPE_STATE_DIRECTORY' } as never);
  const consents = path.join(s.root, 'state-real', 'agents', agentDirectoryName({ name: 'helper', source: { kind: 'local', path: s.v1 } }), 'consents');
  t.like(error, { details: { scopes: [{ access: 'write', declared: '${agent_data}/../consents', root: consents }] } });
  t.false(existsSync(consents), 'refused before consent: -y wrote no receipt');
});

test('zotbox check refuses ${agent_data}/../consents with ZB_SCOPE_STATE_DIRECTORY', async (t) => {
  const s = setup(t);
  const state = path.join(s.root, 'state');
  await t.throwsAsync(collect(run(s, s.v1, state)), { code: 'ZB_SCOPE_STATE_DIRECTORY' } as never); // the attempted run made the agent's directories
  const checked = await runCliCaptured(['check', s.v1, 'write', path.join(state, 'agents/helper/consents/x.json'), '--cwd', s.root], { env: { ZOTBOX_HOME: state } });
  t.is(checked.status, 1);
  t.regex(checked.stderr, /ZB_SCOPE_STATE_DIRECTORY/);
  t.true(checked.stderr.includes('"${agent_data}/../consents" (permissions.fs.write) resolves to'), checked.stderr);
  t.is(checked.stdout, '');
});

test("v2's receipt, approved in another installation and copied in, or stripped of its mac, does not let v2 run without asking", async (t) => {
  const s = setup(t);
  const elsewhere = path.join(s.root, 'elsewhere');
  const state = path.join(s.root, 'state');
  const approved = await collect(run(s, s.v2, elsewhere));
  const start = approved[0] as RunEvent & { type: 'run.start' };
  t.is(start.consent, 'flag');
  t.is(start.permissions.confinement, 'unconfined');
  const digest = start.agent.content_digest;
  const v2 = { name: 'helper', source: { kind: 'local', path: s.v2 } as const };
  // What consent bound: the permissions run.start shows, with the command limits' ceilings (issue 24 §5).
  const { processes, memory_mib, cpu_seconds, file_size_mib } = start.limits!;
  const bound = { ...start.permissions, limits: { processes, memory_mib, cpu_seconds, file_size_mib } } as ConsentSummary;
  const genuine = receiptPath(elsewhere, v2, digest, bound, start.workspace);
  const planted = receiptPath(state, v2, digest, bound, start.workspace);
  ensureAgentDirectory(state, v2);
  mkdirSync(path.dirname(planted), { recursive: true });
  // This installation has a key of its own (an earlier approval of another agent)...
  const { mac: _dropped, ...unsigned } = JSON.parse(readFileSync(genuine, 'utf8')) as Record<string, unknown>;
  await collect(run(s, s.v1.replace('v1', 'v0'), state));
  // ...and a receipt for v2 is planted: the genuine one from elsewhere, or one without a mac.
  const noTerminal = Object.assign(new PassThrough(), { isTTY: false });
  for (const plant of [() => copyFileSync(genuine, planted), () => writeFileSync(planted, JSON.stringify(unsigned))]) {
    plant();
    await t.throwsAsync(collect(run(s, s.v2, state, { yes: false, stdin: noTerminal, stdout: { write: () => true } })), { code: 'ZB_CONSENT_REQUIRED' } as never);
  }
  // On a terminal the user is asked, and sees what v2 really asks for.
  let shown = '';
  const terminal = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined });
  setImmediate(() => terminal.write('n\r'));
  await t.throwsAsync(collect(run(s, s.v2, state, { yes: false, stdin: terminal, stdout: { write: (text: string) => (shown += text), isTTY: true } })), { code: 'ZB_CONSENT_REFUSED' } as never);
  t.regex(shown, /fs write: \/\n[\s\S]*\n {2}UNCONFINED: commands run with your full user rights\n/);
});
