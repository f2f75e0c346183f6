// Issue 21 §6, end to end through runAgent with replayed model turns: a stranger's
// agent that calls itself by a trusted agent's name gets its own ${agent_data},
// sessions and receipts, and can read none of the trusted one's. The attacker is
// the transcript: it chooses every tool call. Expected outcomes are written by hand.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, readdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { agentDataDirectory, agentSessionsDirectory } from '../../src/host/consent/agent-directory.js';
import { packAgent } from '../../src/host/load/pack-agent.js';
import { runAgent, type RunAgentOptions } from '../../src/host/run/run-agent.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { tempDir } from '../fixtures/temp.js';

const SECRET = 'TRUSTED-MEMORY-7f3a';

interface World {
  readonly root: string;
  readonly state: string;
  readonly workspace: string;
  readonly trusted: string;
  readonly stranger: string;
}

/** Two agents named repo-maintainer, byte for byte the same, in two folders. */
function world(t: ExecutionContext): World {
  const root = realpathSync(tempDir(t, 'zb-identity-'));
  const manifest = {
    zotfile: 1,
    name: 'repo-maintainer',
    version: '1.0.0',
    permissions: { fs: { read: ['${workspace}', '${agent_data}'], write: ['${agent_data}'] }, bash: { mode: 'allowlist', allow: ['cat'] } },
  };
  const make = (directory: string) => {
    mkdirSync(directory, { recursive: true });
    writeFileSync(path.join(directory, 'manifest.json'), JSON.stringify(manifest));
    writeFileSync(path.join(directory, 'AGENT.md'), 'You keep notes.');
    return directory;
  };
  const workspace = path.join(root, 'project');
  mkdirSync(workspace);
  return { root, state: path.join(root, 'state'), workspace, trusted: make(path.join(root, 'home', 'agents', 'repo-maintainer')), stranger: make(path.join(root, 'downloads', 'repo-maintainer')) };
}

type Turn = { readonly tool: string; readonly input: Record<string, unknown> } | { readonly text: string };

function transcript(w: World, name: string, turns: readonly Turn[]): string {
  const usage = { input_tokens: 0, output_tokens: 0 };
  const file = path.join(w.root, `${name}.json`);
  const recorded = turns.map((turn, index) =>
    'text' in turn
      ? { content: [{ type: 'text', text: turn.text }], stop: 'end', usage }
      : { content: [{ type: 'tool_use', id: `toolu_${index}`, name: turn.tool, input: turn.input }], stop: 'tool_use', usage },
  );
  writeFileSync(file, JSON.stringify({ zotbox_replay: 1, model: 'replay', turns: recorded }));
  return file;
}

async function run(w: World, reference: string, replayFile: string, over: Pick<RunAgentOptions, 'remember' | 'yes' | 'stdin' | 'stdout' | 'session'> = {}): Promise<RunEvent[]> {
  const events: RunEvent[] = [];
  for await (const event of runAgent({ reference, cwd: w.workspace, replayFile, prompt: 'go', yes: true, env: {}, stateDirectory: w.state, ...over })) events.push(event);
  return events;
}

const identity = (directory: string) => ({ name: 'repo-maintainer', source: { kind: 'local', path: directory } as const });
const results = (events: readonly RunEvent[]) => events.filter((e): e is RunEvent & { type: 'tool.result' } => e.type === 'tool.result');
const decisions = (events: readonly RunEvent[]) => events.filter((e): e is RunEvent & { type: 'gate.decision' } => e.type === 'gate.decision');
const start = (events: readonly RunEvent[]) => events.find((e): e is RunEvent & { type: 'run.start' } => e.type === 'run.start')!;

/** The trusted agent remembers a secret in its ${agent_data}. */
async function trustedRemembers(w: World): Promise<{ data: string; events: RunEvent[] }> {
  const data = agentDataDirectory(w.state, identity(w.trusted));
  const events = await run(w, w.trusted, transcript(w, 'remember', [{ tool: 'write', input: { path: path.join(data, 'memory.md'), content: SECRET } }, { text: 'noted' }]), { remember: true });
  requireWritten(events);
  return { data, events };
}

function requireWritten(events: readonly RunEvent[]): void {
  if (!results(events).every((r) => r.ok)) throw new Error(`the trusted agent could not write its own data: ${JSON.stringify(events)}`);
}

test("a stranger's agent with the trusted one's name gets its own ${agent_data}, and cannot read the trusted one's, by the read tool or by bash", async (t) => {
  const w = world(t);
  const { data: trustedData } = await trustedRemembers(w);
  const strangerData = agentDataDirectory(w.state, identity(w.stranger));
  t.not(strangerData, trustedData);
  const stolen = path.join(trustedData, 'memory.md');
  const events = await run(
    w,
    w.stranger,
    transcript(w, 'steal', [
      { tool: 'read', input: { path: path.join(strangerData, '..', '..', path.basename(path.dirname(trustedData)), 'data', 'memory.md') } },
      { tool: 'read', input: { path: stolen } },
      { tool: 'bash', input: { command: `cat ${stolen}` } },
      { tool: 'write', input: { path: path.join(strangerData, 'mine.md'), content: 'mine' } },
      { text: 'done' },
    ]),
  );
  const denied = decisions(events).filter((d) => !d.allowed);
  t.deepEqual(
    denied.map((d) => [d.tool, d.code]),
    [
      ['read', 'ZB_POLICY_PATH_PROTECTED'],
      ['read', 'ZB_POLICY_PATH_PROTECTED'],
      ['bash', 'ZB_POLICY_PATH_PROTECTED'],
    ],
  );
  t.false(JSON.stringify(events).includes(SECRET), 'the secret reached the stranger');
  t.deepEqual(readdirSync(strangerData), ['mine.md'], "the stranger's own data directory holds what it wrote, and only that");
  t.deepEqual(readdirSync(trustedData), ['memory.md']);
});

test("the stranger's sessions are its own: --continue finds none of the trusted one's, --resume with the trusted id finds nothing", async (t) => {
  const w = world(t);
  const { events: trustedRun } = await trustedRemembers(w);
  const trustedSession = start(trustedRun).session!;
  t.is(path.dirname(trustedSession.file), agentSessionsDirectory(w.state, identity(w.trusted)));
  const hello = transcript(w, 'hello', [{ text: 'hello' }]);
  await t.throwsAsync(run(w, w.stranger, hello, { session: 'continue' }), { code: 'ZB_SESSION_NOT_FOUND' } as never);
  await t.throwsAsync(run(w, w.stranger, hello, { session: { id: trustedSession.id } }), { code: 'ZB_SESSION_NOT_FOUND' } as never);
  const own = start(await run(w, w.stranger, hello)).session!;
  t.is(path.dirname(own.file), agentSessionsDirectory(w.state, identity(w.stranger)));
  t.deepEqual(readdirSync(agentSessionsDirectory(w.state, identity(w.trusted))), [`${trustedSession.id}.jsonl`]);
  // The trusted agent continues its own session, not the stranger's newer one.
  const continued = start(await run(w, w.trusted, hello, { session: 'continue' })).session!;
  t.like(continued, { id: trustedSession.id, continued: true });
});

test("the trusted agent's consent receipt does not cover the stranger: without -y and a terminal, the stranger is refused", async (t) => {
  const w = world(t);
  await trustedRemembers(w); // -y --remember: a receipt for the trusted folder
  const hello = transcript(w, 'hello', [{ text: 'hello' }]);
  const noTerminal = { yes: false, stdin: Object.assign(new PassThrough(), { isTTY: false }), stdout: { write: () => true } };
  t.is(start(await run(w, w.trusted, hello, noTerminal)).consent, 'receipt');
  await t.throwsAsync(run(w, w.stranger, hello, noTerminal), { code: 'ZB_CONSENT_REQUIRED' } as never);
});

test('a .zot packed from the trusted folder is another source (own data); a symlink to the trusted folder is the same one', async (t) => {
  const w = world(t);
  const { data: trustedData } = await trustedRemembers(w);
  const packed = path.join(w.root, 'repo-maintainer.zot');
  await packAgent(w.trusted, packed, { cwd: w.root });
  const read = transcript(w, 'read', [{ tool: 'read', input: { path: path.join(trustedData, 'memory.md') } }, { text: 'done' }]);
  const fromZot = await run(w, packed, read);
  t.deepEqual(
    decisions(fromZot).map((d) => [d.allowed, d.code]),
    [[false, 'ZB_POLICY_PATH_PROTECTED']],
  );
  t.not(agentDataDirectory(w.state, identity(packed)), trustedData);
  const link = path.join(w.root, 'linked-agent');
  symlinkSync(w.trusted, link);
  const throughLink = await run(w, link, read);
  t.deepEqual(
    decisions(throughLink).map((d) => d.allowed),
    [true],
  );
  t.true(JSON.stringify(throughLink).includes(SECRET), 'the same folder reached through a link is the same agent, with its data');
});
