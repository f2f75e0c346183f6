// A descriptor zotbox inherited from whoever started it (here: a directory
// descriptor of the host's root, fd 5) must not reach a sandboxed command, where
// /proc/self/fd/5 would lead around every mount.
import test from 'ava';
import { spawn } from 'node:child_process';
import { closeSync, constants, mkdirSync, openSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../../fixtures/temp.js';

const modules = (relative: string) => new URL(`../../../../src/${relative}`, import.meta.url).href;

test('a descriptor zotbox inherited without close-on-exec is /dev/null inside the sandbox', async (t) => {
  const root = realpathSync(tempDir(t, 'zb-inherit-'));
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  writeFileSync(path.join(root, 'outside.txt'), 'host file');
  const script = path.join(root, 'run.mjs');
  writeFileSync(
    script,
    `import { executeBash } from ${JSON.stringify(modules('host/executors/bash.js'))};
import { createCommandIsolation } from ${JSON.stringify(modules('host/executors/confine/command-isolation.js'))};
import { detectBubblewrap } from ${JSON.stringify(modules('host/executors/confine/mode.js'))};
const ws = ${JSON.stringify(ws)};
const found = detectBubblewrap();
if (!('bwrap' in found)) { process.stdout.write(JSON.stringify({ error: found.reason })); process.exit(0); }
const isolation = createCommandIsolation({ kind: 'bubblewrap', bwrap: found.bwrap }, { readRoots: [ws], writeRoots: [ws] });
const decision = { allow: true, mode: 'ask', command: 'readlink /proc/self/fd/5; cat /proc/self/fd/5/outside.txt' };
const result = await executeBash(decision, { workspace: ws, timeoutMs: 30000, outputCapBytes: 4096, isolation });
process.stdout.write(JSON.stringify(result));
`,
  );
  const directory = openSync(root, constants.O_RDONLY | constants.O_DIRECTORY);
  t.teardown(() => closeSync(directory));
  const child = spawn(process.execPath, ['--no-node-snapshot', script], { stdio: ['ignore', 'pipe', 'inherit', 'ignore', 'ignore', directory] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  await new Promise((resolve) => child.once('close', resolve));
  const result = JSON.parse(output) as { stdout: string; error?: string };
  t.is(result.error, undefined, JSON.stringify(result));
  // Inside, fd 5 is /dev/null or nothing at all; never the host directory.
  t.true(result.stdout === '/dev/null\n' || result.stdout === '', JSON.stringify(result));
  t.notRegex(JSON.stringify(result), /host file/);
});
