// Run as a child process from a copy of the package whose warm init was replaced before this process started (the
// parent test did it): the sealed copy zotbox reads is then that program, a stand-in for an init that is not alone
// (fake-init.ts keeps a thread). Two calls; prints how each got its sandbox, as JSON.
import path from 'node:path';
import { executeBash } from '../../src/host/executors/bash.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../src/host/executors/command-environment.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { confinedIsolation } from '../fixtures/isolation.js';

const [root] = process.argv.slice(2) as [string];
const ws = path.join(root, 'ws');
const used: string[] = [];
const isolation = confinedIsolation({ readRoots: [ws], writeRoots: [ws] }, undefined, { sandboxUsed: (how) => used.push(how) });
const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: ws });
const shell: ShellContext = { mode: 'ask', allow: [], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
const outputs: string[] = [];
for (const command of ['echo one', 'echo two']) {
  const decision = decideShellCommand(command, shell);
  if (!decision.allow) throw new Error(decision.reason);
  outputs.push((await executeBash(decision, { workspace: ws, timeoutMs: 60_000, outputCapBytes: 65536, isolation, shell })).stdout);
}
await isolation.release();
process.stdout.write(JSON.stringify({ used, outputs }));
