// Run as a child in a private mount namespace whose /dev/shm and /mnt are fresh tmpfs (the parent test makes it):
// nothing of the real host is at stake (the checkout may lie below /tmp, so /tmp is left as it is). The layout's
// write scopes are the workspace /mnt/ws and /dev/shm itself (a user who grants it: a place the sandbox has a tmpfs
// of its own at, as /tmp); the host has canary files there. One confined call runs, then the canaries are looked at.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { executeBash } from '../../src/host/executors/bash.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../src/host/executors/command-environment.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { confinedIsolation } from '../fixtures/isolation.js';

const canaries = ['/dev/shm/canary.txt', '/dev/shm/canary-dir/file.txt'];
mkdirSync('/dev/shm/canary-dir');
mkdirSync('/mnt/ws');
for (const canary of canaries) writeFileSync(canary, "the user's file");
const data = '/mnt/state/agents/tester/data';
mkdirSync(data, { recursive: true });
// argv[2] 'ro': /dev/shm and /tmp are read scopes only.
const readOnly = process.argv[2] === 'ro';
// Read-only, /tmp is a read scope too (the host's /tmp here: only read).
const layout = {
  readRoots: readOnly ? ['/mnt/ws', '/dev/shm', '/tmp'] : ['/mnt/ws', '/dev/shm'],
  writeRoots: readOnly ? ['/mnt/ws', data] : ['/mnt/ws', '/dev/shm', data],
  stateDirectory: '/mnt/state',
  agentData: data,
};
const used: string[] = [];
const isolation = confinedIsolation(layout, undefined, { sandboxUsed: (how) => used.push(how) });
const scopes = compileScopes(
  { read: readOnly ? ['${workspace}', '/dev/shm', '/tmp'] : ['${workspace}', '/dev/shm'], write: readOnly ? ['${workspace}'] : ['${workspace}', '/dev/shm'] },
  { workspace: '/mnt/ws', agentData: data },
);
const shell: ShellContext = { mode: 'ask', allow: [], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
const decision = decideShellCommand('echo done', shell);
if (!decision.allow) throw new Error(decision.reason);
let outcome: unknown;
try {
  const result = await executeBash(decision, { workspace: '/mnt/ws', timeoutMs: 60_000, outputCapBytes: 65536, isolation, shell });
  outcome = { exitCode: result.exitCode, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
} catch (error) {
  outcome = { code: (error as { code?: string }).code, message: String(error).slice(0, 300) };
}
await isolation.release();
process.stdout.write(JSON.stringify({ outcome, used, kept: canaries.filter((canary) => existsSync(canary)) }));
