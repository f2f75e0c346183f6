#!/usr/bin/env node
// zotbox launcher: runs the CLI in this process. Only a command that loads
// isolated-vm is re-executed once with --no-node-snapshot (the list and the reason
// are in src/cli/launch.ts); every other command skips that cost.
import { fileURLToPath } from 'node:url';
import { launch } from '../dist/src/cli/launch.js';

await launch({
  script: fileURLToPath(import.meta.url),
  argv: process.argv.slice(2),
  run: async (argv, signal) => (await import('../dist/src/cli.js')).runCli(argv, { signal }),
});
