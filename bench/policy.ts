// npm run bench -- policy
// Side by side, in one run:
//  - a path decision (existing file, new nested file, symlinked path) against a
//    bare fs.realpathSync.native of the same path;
//  - shell decisions per second against parsing and canonicalising alone, and
//    deciding each pipeline again at run time against deciding the line once
//    (shell-decision.ts);
//  - a gate round trip from a worker thread to the host and back, against a raw
//    MessagePort echo on the same kind of channel.
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { createGateDecider } from '../src/policy/gate-decider.js';
import { serveGate } from '../src/policy/gate-server.js';
import { decidePathAccess, type PathTool } from '../src/policy/path-decision.js';
import { compileScopes } from '../src/policy/scopes.js';
import type { ShellContext } from '../src/policy/shell-decision.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../src/host/executors/command-environment.js';
import { formatTable, pairedNs } from './harness.js';
import { shellDecisionRows } from './shell-decision.js';

const WORKER_SOURCE = (clientModule: string) => `
  import { parentPort, workerData } from 'node:worker_threads';
  const { GateClient } = await import(${JSON.stringify(clientModule)});
  const { gatePort, echoPort, calls, rounds, path } = workerData;
  const client = new GateClient(gatePort, 10000);
  let nextEcho = 1;
  const echoWaiters = new Map();
  echoPort.on('message', (m) => { echoWaiters.get(m.id)?.(m); echoWaiters.delete(m.id); });
  const echo = (payload) => new Promise((resolve) => { const id = nextEcho++; echoWaiters.set(id, resolve); echoPort.postMessage({ type: 'echo', id, payload }); });
  const time = async (fn) => { const start = process.hrtime.bigint(); for (let i = 0; i < calls; i++) await fn(); return Number(process.hrtime.bigint() - start) / calls; };
  for (let i = 0; i < 2000; i++) { await client.call('read', { path }); await echo({ path }); }
  const gate = [], raw = [];
  for (let r = 0; r < rounds; r++) { gate.push(await time(() => client.call('read', { path }))); raw.push(await time(() => echo({ path }))); }
  parentPort.postMessage({ gate, raw });
  client.close();
`;

async function gateRoundTrip(decide: Parameters<typeof serveGate>[1]['decide'], requestPath: string): Promise<{ gate: number; raw: number; ratio: number }> {
  const gateChannel = new MessageChannel();
  const echoChannel = new MessageChannel();
  const server = serveGate(gateChannel.port1, { decide, execute: async () => 'ok', timeoutMs: 10_000 });
  echoChannel.port1.on('message', (m: { id: number; payload: unknown }) => echoChannel.port1.postMessage({ type: 'echo', id: m.id, payload: 'ok' }));
  const clientModule = fileURLToPath(new URL('../src/policy/gate-client.js', import.meta.url));
  const worker = new Worker(WORKER_SOURCE(clientModule), {
    eval: true,
    workerData: { gatePort: gateChannel.port2, echoPort: echoChannel.port2, calls: 5000, rounds: 9, path: requestPath },
    transferList: [gateChannel.port2, echoChannel.port2],
  });
  const { gate, raw } = await new Promise<{ gate: number[]; raw: number[] }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  await worker.terminate();
  server.close();
  gateChannel.port1.close();
  echoChannel.port1.close();
  const median = (list: number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
  return { gate: median(gate), raw: median(raw), ratio: median(gate.map((g, i) => g / raw[i]!)) };
}

export async function runPolicyBench(): Promise<void> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zb-bench-policy-')));
  try {
    const ws = path.join(root, 'ws');
    mkdirSync(path.join(ws, 'src', 'lib', 'deep'), { recursive: true });
    writeFileSync(path.join(ws, 'src', 'lib', 'deep', 'file.ts'), 'x');
    mkdirSync(path.join(root, 'shared'));
    writeFileSync(path.join(root, 'shared', 'target.ts'), 'x');
    symlinkSync(path.join(root, 'shared'), path.join(ws, 'linked'));
    const scopes = compileScopes({ read: ['${workspace}', path.join(root, 'shared')], write: ['${workspace}'] }, { workspace: ws, agentData: path.join(root, 'data') });

    const cases: [string, PathTool, string][] = [
      ['existing file, read', 'read', path.join(ws, 'src/lib/deep/file.ts')],
      ['existing file, write', 'write', path.join(ws, 'src/lib/deep/file.ts')],
      ['new nested file, write', 'write', path.join(ws, 'src/lib/new/dir/file.ts')],
      ['symlinked path, read', 'read', path.join(ws, 'linked/target.ts')],
    ];
    const rows: string[][] = [];
    for (const [label, tool, target] of cases) {
      const m = pairedNs(
        () => decidePathAccess(tool, target, scopes),
        () => {
          try {
            realpathSync.native(target);
          } catch {
            // a new file does not exist: the bare call fails, which is what it costs
          }
        },
      );
      rows.push([`path decision: ${label}`, `${(m.a / 1000).toFixed(2)} µs`, 'fs.realpathSync.native', `${(m.b / 1000).toFixed(2)} µs`, `${m.ratio.toFixed(2)}x`, '≤ 1.5x']);
    }

    const shell: ShellContext = { mode: 'allowlist', allow: ['git', 'grep', 'ls', 'wc', 'sort', 'head'], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
    rows.push(...shellDecisionRows(shell, ws));

    const trivial = await gateRoundTrip(
      (call) => ({ allow: true, approved: { tool: 'skill', call: { type: 'tool.call', id: call.id, tool: 'skill', input: { name: 'x' } }, decision: { allow: true, name: 'x' } }, audit: {} }),
      'src/lib/deep/file.ts',
    );
    rows.push(['gate round trip (protocol only)', `${(trivial.gate / 1000).toFixed(1)} µs`, 'raw MessagePort echo', `${(trivial.raw / 1000).toFixed(1)} µs`, `${trivial.ratio.toFixed(2)}x`, '≤ 1.5x']);
    const decider = createGateDecider({ shell, skills: new Set() });
    const real = await gateRoundTrip(decider, 'src/lib/deep/file.ts');
    rows.push(['gate round trip (with the read decision)', `${(real.gate / 1000).toFixed(1)} µs`, 'raw MessagePort echo', `${(real.raw / 1000).toFixed(1)} µs`, `${real.ratio.toFixed(2)}x`, '']);

    process.stdout.write(formatTable(['measure', 'zotbox', 'baseline', 'baseline value', 'ratio', 'target'], rows));
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
