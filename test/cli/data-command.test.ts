// `zotbox data list` and `zotbox data move` through the CLI (issue 21 §6): an agent
// whose folder moved starts empty, and gets its data back only by the explicit step.
import test, { type ExecutionContext } from 'ava';
import { mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { tempDir } from '../fixtures/temp.js';

interface World {
  readonly root: string;
  readonly state: string;
  readonly env: Record<string, string>;
  readonly old: string;
  readonly moved: string;
}

function world(t: ExecutionContext): World {
  const root = realpathSync(tempDir(t, 'zb-data-cli-'));
  const old = path.join(root, 'old-place', 'noter');
  mkdirSync(old, { recursive: true });
  writeFileSync(path.join(old, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'noter', version: '1.0.0', permissions: { fs: { read: ['${agent_data}'], write: ['${agent_data}'] } } }));
  writeFileSync(path.join(old, 'AGENT.md'), 'You keep notes.');
  const state = path.join(root, 'state');
  return { root, state, env: { ZOTBOX_HOME: state }, old, moved: path.join(root, 'agents', 'noter') };
}

/** Runs the agent with one replayed tool call on `${agent_data}/note.md` (found from run.start), then an answer. */
async function runWith(w: World, agent: string, tool: 'write' | 'read'): Promise<RunEvent[]> {
  const inspected = JSON.parse((await runCliCaptured(['inspect', agent, '--json'], { env: w.env })).stdout) as { storage: { data: string } };
  const note = path.join(inspected.storage.data, 'note.md');
  const transcript = path.join(w.root, `${tool}.json`);
  const usage = { input_tokens: 0, output_tokens: 0 };
  const input = tool === 'write' ? { path: note, content: 'remember the milk' } : { path: note };
  writeFileSync(
    transcript,
    JSON.stringify({
      zotbox_replay: 1,
      model: 'replay',
      turns: [
        { content: [{ type: 'tool_use', id: 'toolu_1', name: tool, input }], stop: 'tool_use', usage },
        { content: [{ type: 'text', text: 'done' }], stop: 'end', usage },
      ],
    }),
  );
  const result = await runCliCaptured(['run', agent, 'go', '--cwd', w.root, '--replay', transcript, '-y', '--json'], { env: w.env });
  requireSuccess(result.status, result.stderr);
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunEvent);
}

function requireSuccess(status: number, stderr: string): void {
  if (status !== 0) throw new Error(stderr);
}

const readResult = (events: readonly RunEvent[]) => events.find((e): e is RunEvent & { type: 'tool.result' } => e.type === 'tool.result')!;

test('a moved folder starts with empty data; data move --from the old path gives it back, once', async (t) => {
  const w = world(t);
  await runWith(w, w.old, 'write');
  mkdirSync(path.dirname(w.moved));
  renameSync(w.old, w.moved);
  t.false(readResult(await runWith(w, w.moved, 'read')).ok, 'the moved folder is a new source: its data is empty');
  const listed = JSON.parse((await runCliCaptured(['data', 'list', 'noter', '--json'], { env: w.env })).stdout) as { agents: { name: string; source: string }[] };
  t.deepEqual(
    listed.agents.map((a) => [a.name, a.source]).sort(),
    [
      ['noter', w.moved],
      ['noter', w.old],
    ].sort(),
  );
  const moved = await runCliCaptured(['data', 'move', w.moved, '--from', w.old], { env: w.env });
  t.is(moved.status, 1, 'the run at the new place made data of its own (a session): the move is refused');
  t.regex(moved.stderr, /ZB_DATA_DESTINATION_EXISTS/);
  t.true(moved.stderr.includes(`rm -r "${path.join(w.state, 'agents')}`), moved.stderr);
  const remove = /rm -r "([^"]+)"/.exec(moved.stderr)![1]!;
  rmSync(remove, { recursive: true });
  const again = await runCliCaptured(['data', 'move', w.moved, '--from', w.old, '--json'], { env: w.env });
  t.is(again.status, 0, again.stderr);
  t.like(JSON.parse(again.stdout), { ok: true, name: 'noter', source: w.moved, resumed: false });
  const read = readResult(await runWith(w, w.moved, 'read'));
  t.true(read.ok, 'the data followed the move');
  const twice = await runCliCaptured(['data', 'move', w.moved, '--from', w.old], { env: w.env });
  t.is(twice.status, 1);
  t.regex(twice.stderr, /ZB_DATA_NOT_FOUND.*zotbox data list noter/);
});

test('name-only data of earlier versions is listed as legacy, given to no run, and adopted by data move --legacy', async (t) => {
  const w = world(t);
  mkdirSync(path.join(w.state, 'agents', 'noter', 'data'), { recursive: true });
  writeFileSync(path.join(w.state, 'agents', 'noter', 'data', 'note.md'), 'legacy milk');
  const listed = JSON.parse((await runCliCaptured(['data', 'list', '--json'], { env: w.env })).stdout) as { legacy: { name: string; data: string | null }[] };
  t.deepEqual(listed.legacy, [{ name: 'noter', data: path.join(w.state, 'agents', 'noter', 'data'), consents: null, sessions: null }]);
  const text = (await runCliCaptured(['data', 'list'], { env: w.env })).stdout;
  t.regex(text, /^noter {2}LEGACY .*--legacy/m);
  const adopted = await runCliCaptured(['data', 'move', w.old, '--legacy'], { env: w.env });
  t.is(adopted.status, 0, adopted.stderr);
  t.true(readResult(await runWith(w, w.old, 'read')).ok);
});

test('data: usage errors exit 2, and a name that is not one is refused', async (t) => {
  const w = world(t);
  for (const args of [
    ['data', 'copy'],
    ['data', 'move', w.old],
    ['data', 'move', w.old, '--legacy', '--from', w.old],
    ['data', 'list', '--legacy'],
    ['data', 'list', '../x'],
  ]) {
    const result = await runCliCaptured(args, { env: w.env });
    t.is(result.status, 2, args.join(' '));
  }
});
