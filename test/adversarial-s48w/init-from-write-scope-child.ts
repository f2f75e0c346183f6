// Run as a child process from a copy of the package that lies inside the workspace (node_modules/zotbox of the
// project, as when a project installs zotbox): there WARM_INIT_PROGRAM, the init every new warm sandbox runs, is a
// file the agent may write. Call 1 replaces it and makes the sandbox be dropped (it renames the directory that holds
// the workspace's mount point: the init replies 'D'); call 2 then starts a new warm sandbox. Prints a JSON report.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { executeBash } from '../../src/host/executors/bash.js';
import { COMMAND_SEARCH_PATH, TRUSTED_PROGRAM_DIRECTORIES } from '../../src/host/executors/command-environment.js';
import { WARM_INIT_PROGRAM } from '../../src/host/executors/confine/fd-passing.js';
import { compileScopes } from '../../src/policy/scopes.js';
import { decideShellCommand, type ShellContext } from '../../src/policy/shell-decision.js';
import { confinedIsolation } from '../fixtures/isolation.js';
import { fakeInitProgram } from './fake-init.js';

const [root] = process.argv.slice(2) as [string];
const ws = path.join(root, 'ws');
const data = path.join(root, 'state', 'agents', 'tester', 'data');
const layout = { readRoots: [ws], writeRoots: [ws, data], stateDirectory: path.join(root, 'state'), agentData: data };
const used: string[] = [];
const inits: number[] = [];
const isolation = confinedIsolation(layout, undefined, { sandboxUsed: (how) => used.push(how), beforeVerify: (pid) => inits.push(pid) });
const scopes = compileScopes({ read: ['${workspace}'], write: ['${workspace}'] }, { workspace: ws, agentData: data });
const shell: ShellContext = { mode: 'ask', allow: [], scopes, searchPath: COMMAND_SEARCH_PATH, trustedDirectories: TRUSTED_PROGRAM_DIRECTORIES };
const call = (command: string) => {
  const decision = decideShellCommand(command, shell);
  if (!decision.allow) throw new Error(decision.reason);
  return executeBash(decision, { workspace: ws, timeoutMs: 60_000, outputCapBytes: 65536, isolation, shell });
};

const marker = path.join(ws, 'replaced-init-ran');
const lurker = path.join(ws, 'lurker');
const program = fakeInitProgram(marker, lurker);
const replace = `cat > ${WARM_INIT_PROGRAM}.new <<'ZB_EOF'\n${program}ZB_EOF\nchmod 755 ${WARM_INIT_PROGRAM}.new && mv ${WARM_INIT_PROGRAM}.new ${WARM_INIT_PROGRAM} && mv ${root} /tmp/zb-moved-away`;
const first = await call(replace);
const second = await call('echo second');
// The host checked the sandbox after call 2 (its init alone, no other cgroup member) and keeps it: call 3 reuses it.
const third = await call('echo third');
const init = inits.at(-1)!;
// Between calls, after call 3's aftercare: what is alive in the sandbox.
const threads = existsSync(`/proc/${init}/task`) ? readdirSync(`/proc/${init}/task`).length : 0;
await isolation.release();
process.stdout.write(
  JSON.stringify({
    initProgram: WARM_INIT_PROGRAM,
    first: [first.exitCode, first.stderr],
    second: [second.exitCode, second.stdout, second.stderr],
    third: third.stdout,
    used,
    threads,
    replacedInitRan: existsSync(marker),
  }),
);
