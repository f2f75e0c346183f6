#!/usr/bin/env -S node --no-node-snapshot
// zotbox launcher. isolated-vm crashes nondeterministically on Node 20 when
// node's startup snapshot is in use (V8 shared heap), so every zotbox process
// runs with --no-node-snapshot. The shebang passes it; when the file is started
// some other way (`node bin/zotbox.js`), re-execute once with the flag.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const FLAG = '--no-node-snapshot';
const hasFlag =
  process.execArgv.includes(FLAG) || (process.env.NODE_OPTIONS ?? '').split(/\s+/).includes(FLAG);

if (hasFlag) {
  const { runCli } = await import('../dist/src/cli.js');
  // First Ctrl-C: cancel cleanly (commands stop and remove what they started).
  // Second Ctrl-C: leave at once.
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  });
  process.exitCode = await runCli(process.argv.slice(2), { signal: controller.signal });
} else {
  const self = fileURLToPath(import.meta.url);
  // The child shares our terminal and process group, so Ctrl-C reaches it
  // directly; we only mirror how it ended.
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
  const child = spawnSync(process.execPath, [FLAG, ...process.execArgv, self, ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  if (child.error) {
    process.stderr.write(`zotbox: could not restart Node.js with ${FLAG}: ${child.error.message}\n`);
    process.exitCode = 1;
  } else if (child.signal) {
    // End the same way the child did, so shells see the signal, not a status.
    process.removeAllListeners(child.signal);
    process.kill(process.pid, child.signal);
  } else {
    process.exitCode = child.status ?? 1;
  }
}
