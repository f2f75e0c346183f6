import test from 'ava';
import { spawnSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { EXAMPLES_DIR } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';
import { agentDataDirectory } from '../../src/host/consent/agent-directory.js';

function workspace(t: Parameters<typeof tempDir>[0]) {
  const ws = realpathSync(tempDir(t, 'zb-check-'));
  mkdirSync(path.join(ws, 'src'));
  writeFileSync(path.join(ws, 'src', 'a.ts'), 'a');
  return ws;
}

const env = (t: Parameters<typeof tempDir>[0]) => ({ ZOTBOX_HOME: tempDir(t, 'zb-state-') });

test('check answers for code-reviewer: reads inside the workspace, no writes, no bash', async (t) => {
  const ws = workspace(t);
  const reviewer = path.join(EXAMPLES_DIR, 'code-reviewer');
  const read = await runCliCaptured(['check', reviewer, 'read', 'src/a.ts', '--cwd', ws], { env: env(t) });
  t.is(read.status, 0, read.stderr);
  t.regex(read.stdout, new RegExp(`^allow read ${ws}/src/a\\.ts\\n`));
  const outside = await runCliCaptured(['check', reviewer, 'read', '/etc/passwd', '--cwd', ws], { env: env(t) });
  t.is(outside.status, 1);
  t.regex(outside.stdout, /^deny: read denied: .*outside the read scopes.*\n {2}code: ZB_POLICY_PATH_OUTSIDE_SCOPE\n {2}canonical path: \/etc\/passwd\n/);
  t.is(outside.stderr, '');
  const write = await runCliCaptured(['check', reviewer, 'write', 'src/a.ts', '--cwd', ws], { env: env(t) });
  t.is(write.status, 1);
  t.regex(write.stdout, /ZB_POLICY_NO_PERMISSION/);
  const bash = await runCliCaptured(['check', reviewer, 'bash', 'ls', '--cwd', ws], { env: env(t) });
  t.is(bash.status, 1);
  t.regex(bash.stdout, /no bash permission/);
});

test('check answers for repo-maintainer: the allowlist, with the programs that would run', async (t) => {
  const ws = workspace(t);
  const maintainer = path.join(EXAMPLES_DIR, 'repo-maintainer');
  const ok = await runCliCaptured(['check', maintainer, 'bash', 'git status && ls -la src', '--cwd', ws], { env: env(t) });
  t.is(ok.status, 0, ok.stdout + ok.stderr);
  t.regex(ok.stdout, /^allow bash\n {2}\/\S*git \["status"\]\n {2}&& \/\S*ls \["-la","src"\]\n/);
  for (const command of ['git status & rm -rf ~', 'GIT_PAGER=sh git log', './git status', 'git -c core.pager=sh log', 'cat /etc/passwd', 'ls /etc']) {
    const denied = await runCliCaptured(['check', maintainer, 'bash', command, '--cwd', ws], { env: env(t) });
    t.is(denied.status, 1, command);
  }
});

test("${agent_data} expands into the agent's own directory in the state directory; the name-only directory of earlier versions is not its", async (t) => {
  const ws = workspace(t);
  const state = tempDir(t, 'zb-state-');
  const maintainer = path.join(EXAMPLES_DIR, 'repo-maintainer');
  const own = path.join(agentDataDirectory(state, { name: 'repo-maintainer', source: { kind: 'local', path: realpathSync(maintainer) } }), 'notes.md');
  const result = await runCliCaptured(['check', maintainer, 'write', own, '--cwd', ws, '--json'], { env: { ZOTBOX_HOME: state } });
  t.is(result.status, 0, result.stdout);
  t.is((JSON.parse(result.stdout) as { canonical_path: string }).canonical_path, path.join(realpathSync(state), path.relative(state, own)));
  const legacy = await runCliCaptured(['check', maintainer, 'write', path.join(state, 'agents/repo-maintainer/data/notes.md'), '--cwd', ws, '--json'], { env: { ZOTBOX_HOME: state } });
  t.is(legacy.status, 1, legacy.stdout);
  t.like(JSON.parse(legacy.stdout), { allowed: false, code: 'ZB_POLICY_PATH_PROTECTED' });
});

test('a subject of "-" is read from standard input verbatim, NUL and newlines included', async (t) => {
  const ws = workspace(t);
  const maintainer = path.join(EXAMPLES_DIR, 'repo-maintainer');
  const newline = await runCliCaptured(['check', maintainer, 'bash', '-', '--cwd', ws, '--json'], { env: env(t), stdin: 'git status\nrm -rf /' });
  t.is(newline.status, 1);
  t.like(JSON.parse(newline.stdout), { allowed: false, subject: 'git status\nrm -rf /', code: 'ZB_POLICY_SHELL_CONSTRUCT' });
  const nul = await runCliCaptured(['check', maintainer, 'read', '-', '--cwd', ws, '--json'], { env: env(t), stdin: Buffer.from('src/a.ts\u0000.png') });
  t.like(JSON.parse(nul.stdout), { allowed: false, code: 'ZB_POLICY_PATH_INVALID' });
  const trailing = await runCliCaptured(['check', maintainer, 'read', '-', '--cwd', ws, '--json'], { env: env(t), stdin: 'src/a.ts\n' });
  t.like(JSON.parse(trailing.stdout), { subject: 'src/a.ts\n' }, 'no trimming');
});

test('--json gives the documented shape', async (t) => {
  const ws = workspace(t);
  const result = await runCliCaptured(['check', path.join(EXAMPLES_DIR, 'repo-maintainer'), 'bash', 'LANG=C git log', '--cwd', ws, '--json'], { env: env(t) });
  const doc = JSON.parse(result.stdout) as { commands: [{ pipeline: [unknown] }] };
  t.deepEqual(Object.keys(doc), ['allowed', 'tool', 'subject', 'code', 'reason', 'canonical_path', 'bash_mode', 'commands', 'net', 'agent', 'workspace', 'warnings']);
  t.like(doc.commands[0].pipeline[0], { kind: 'exec', argv: ['git', 'log'], env: { LANG: 'C' }, cwd: ws });
});

test('usage errors exit 2: an unknown tool, a missing subject', async (t) => {
  const reviewer = path.join(EXAMPLES_DIR, 'code-reviewer');
  t.is((await runCliCaptured(['check', reviewer, 'exec', 'x'])).status, 2);
  t.is((await runCliCaptured(['check', reviewer, 'read'])).status, 2);
});

test('check agrees with the gate on wrappers and leading assignments (issue 10 items 2 and 5)', async (t) => {
  const ws = workspace(t);
  const agent = path.join(realpathSync(tempDir(t, 'zb-agent-')), 'wrapped');
  mkdirSync(agent);
  const permissions = { fs: { read: ['${workspace}'], write: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['git', 'timeout', 'cat'] } };
  writeFileSync(path.join(agent, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'wrapped', version: '1.0.0', permissions }));
  writeFileSync(path.join(agent, 'AGENT.md'), 'You help.');
  const cases: readonly [string, string | null][] = [
    ["timeout 5 sh -c 'id'", 'ZB_POLICY_SHELL_NOT_ALLOWED'],
    ['env sh -c id', 'ZB_POLICY_SHELL_NOT_ALLOWED'],
    ["env -S 'sh -c id' git", 'ZB_POLICY_SHELL_NOT_ALLOWED'],
    ['nohup sh -c id', 'ZB_POLICY_SHELL_NOT_ALLOWED'],
    ['nice -n 5 sh -c id', 'ZB_POLICY_SHELL_NOT_ALLOWED'],
    ['stdbuf -o0 sh -c id', 'ZB_POLICY_SHELL_NOT_ALLOWED'],
    ['timeout --signal=KILL 5 sh', 'ZB_POLICY_SHELL_NOT_ALLOWED'],
    ['env LD_PRELOAD=/x.so cat src/a.ts', 'ZB_POLICY_SHELL_ASSIGNMENT'],
    ['timeout 5 rm -rf /', 'ZB_POLICY_SHELL_NOT_ALLOWED'],
    ['timeout 5 cat /etc/passwd', 'ZB_POLICY_PATH_OUTSIDE_SCOPE'],
    ['env -i git status', 'ZB_POLICY_SHELL_ARGUMENT'],
    ['RUST_BACKTRACE=1 NODE_ENV=test git status', null],
    ['A=1 B=2 timeout 5 git status', null],
  ];
  for (const [command, code] of cases) {
    const result = await runCliCaptured(['check', agent, 'bash', command, '--cwd', ws, '--json'], { env: env(t) });
    const answer = JSON.parse(result.stdout) as { code: string | null; reason: string | null };
    t.is(result.status, code === null ? 0 : 1, `${command}: ${answer.reason ?? '(no reason)'}`);
    t.is(answer.code, code, command);
  }
  const wrapped = JSON.parse((await runCliCaptured(['check', agent, 'bash', 'A=1 B=2 timeout 5 git status', '--cwd', ws, '--json'], { env: env(t) })).stdout) as {
    commands: [{ pipeline: [{ program: string }] }];
  };
  t.like(wrapped.commands[0].pipeline[0], { kind: 'exec', argv: ['timeout', '5', 'git', 'status'], env: { A: '1', B: '2' }, cwd: ws });
  t.regex(wrapped.commands[0].pipeline[0].program, /\/timeout$/);
});

/** An agent allowlisting every program of issue 10's examples, with fs.write limited to CHANGELOG.md. */
function issueAgent(t: Parameters<typeof tempDir>[0]): { agent: string; ws: string } {
  const root = realpathSync(tempDir(t, 'zb-check-issue-'));
  const agent = path.join(root, 'agent');
  mkdirSync(agent);
  const allow = ['git', 'tar', 'awk', 'less', 'wget', 'make', 'perl', 'curl', 'file', 'wc', 'du', 'cp', 'cargo', 'npm', 'timeout', 'env', 'nohup', 'nice', 'stdbuf', 'sh', 'cat', 'rm'];
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'issue-ten', version: '1.0.0', permissions: { fs: { read: ['${workspace}'], write: ['${workspace}/CHANGELOG.md'] }, bash: { mode: 'allowlist', allow } } }),
  );
  writeFileSync(path.join(agent, 'AGENT.md'), 'Examples.');
  const ws = path.join(root, 'ws');
  mkdirSync(ws);
  for (const name of ['a.txt', 'app.txt', 'CHANGELOG.md', 'k.txt', 'p.awk']) writeFileSync(path.join(ws, name), `${name}\n`);
  const gitEnv = { PATH: '/usr/bin:/bin', HOME: root, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' };
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['commit', '-q', '-m', 'first'],
  ])
    spawnSync('git', args, { cwd: ws, env: gitEnv });
  writeFileSync(path.join(ws, 'app.txt'), 'an uncommitted edit\n');
  return { agent, ws };
}

test("zotbox check agrees with the gate on issue 10's examples", async (t) => {
  const { agent, ws } = issueAgent(t);
  const secret = path.join(path.dirname(ws), 'secret');
  writeFileSync(secret, 'SECRET');
  // Each with the code a user sees; written by hand from the issue.
  const cases: readonly (readonly [string, string])[] = [
    ['git restore app.txt', 'ZB_POLICY_PATH_OUTSIDE_SCOPE'], // it would erase the uncommitted edit to app.txt
    ['tar cPf /tmp/out.tar a.txt', 'ZB_POLICY_SHELL_ARGUMENT'],
    ['tar xPf evil.tar', 'ZB_POLICY_SHELL_ARGUMENT'],
    ['tar cIf \'sh -c "id"\' x.tar a.txt', 'ZB_POLICY_SHELL_ARGUMENT'],
    ['awk -F , \'BEGIN{system("id")}\'', 'ZB_POLICY_SHELL_ARGUMENT'],
    ['awk -W exec p.awk', 'ZB_POLICY_SHELL_ARGUMENT'],
    ['less --lesskey-src=k.txt', 'ZB_POLICY_SHELL_ARGUMENT'],
    ['wget --use-askpass=./script', 'ZB_POLICY_SHELL_ARGUMENT'],
    ["make SHELL=/bin/sh 'X:=$(shell id)' -q nothing", 'ZB_POLICY_SHELL_ARGUMENT'],
    ["perl '-M5;`id`' a.txt", 'ZB_POLICY_SHELL_ARGUMENT'], // -M loads a module with code after it
    ['curl File:///secret', 'ZB_POLICY_SHELL_ARGUMENT'],
    ["curl 'fil[e-e]:///secret'", 'ZB_POLICY_SHELL_ARGUMENT'],
    [`file -f ${secret}`, 'ZB_POLICY_SHELL_ARGUMENT'],
    [`wc --files0-from=${secret}`, 'ZB_POLICY_SHELL_ARGUMENT'],
    [`du --files0-from=${secret}`, 'ZB_POLICY_SHELL_ARGUMENT'],
    ['cp -l a.txt CHANGELOG.md', 'ZB_POLICY_PATH_HARDLINK'],
    ["timeout 5 sh -c 'id'", 'ZB_POLICY_SHELL_ARGUMENT'],
    ['env LD_PRELOAD=/x.so cat a.txt', 'ZB_POLICY_SHELL_ASSIGNMENT'],
    ['timeout 5 rm -rf /', 'ZB_POLICY_PATH_OUTSIDE_SCOPE'],
  ];
  for (const [command, code] of cases) {
    const result = await runCliCaptured(['check', agent, 'bash', command, '--cwd', ws, '--json'], { env: env(t) });
    t.is(result.status, 1, command);
    t.is((JSON.parse(result.stdout) as { code: string }).code, code, command);
  }
  // (RUST_BACKTRACE=1 cargo test is in the policy corpora, with a stub: cargo is not installed everywhere.)
  for (const command of ['NODE_ENV=test npm test', 'A=1 B=2 npm run build']) {
    const allowed = await runCliCaptured(['check', agent, 'bash', command, '--cwd', ws], { env: env(t) });
    t.is(allowed.status, 0, `${command}: ${allowed.stdout}`);
    // The same commands run project code: with confinement off they are denied, as programs without a rule are.
    const unconfined = await runCliCaptured(['check', agent, 'bash', command, '--cwd', ws, '--confine', 'off', '--json'], { env: env(t) });
    t.is((JSON.parse(unconfined.stdout) as { code: string }).code, 'ZB_POLICY_SHELL_NO_RULE', command);
  }
});

test('check decides a write as a run does: a hook the repository config names is refused, naming the config line (issue 21)', async (t) => {
  const ws = workspace(t);
  const git = (...args: string[]) => spawnSync('git', args, { cwd: ws, env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', GIT_CONFIG_NOSYSTEM: '1', HOME: ws } });
  git('init', '-q', '.');
  git('config', 'core.hooksPath', 'githooks');
  mkdirSync(path.join(ws, 'githooks'));
  writeFileSync(path.join(ws, 'githooks', 'pre-commit'), '#!/bin/sh\n');
  const maintainer = path.join(EXAMPLES_DIR, 'repo-maintainer');
  const hook = await runCliCaptured(['check', maintainer, 'write', 'githooks/pre-commit', '--cwd', ws], { env: { ...env(t), HOME: ws, GIT_CONFIG_NOSYSTEM: '1' } });
  t.is(hook.status, 1, hook.stdout + hook.stderr);
  t.regex(hook.stdout, /^deny: .*core\.hooksPath .*\.git\/config line \d+/mu);
  t.regex(hook.stdout, /code: ZB_POLICY_PATH_PROTECTED/u);
  const plain = await runCliCaptured(['check', maintainer, 'write', 'src/a.ts', '--cwd', ws], { env: { ...env(t), HOME: ws, GIT_CONFIG_NOSYSTEM: '1' } });
  t.is(plain.status, 0, plain.stdout + plain.stderr);
});

function netAgent(t: Parameters<typeof tempDir>[0], allow: readonly string[]): string {
  const dir = tempDir(t, 'zb-net-agent-');
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ zotfile: 1, name: 'fetcher', permissions: { fs: { read: ['${workspace}'] }, net: { allow } } }));
  return dir;
}

test('check net decides a URL against net.allow: the host, the port rule, the wildcard scope', async (t) => {
  const ws = workspace(t);
  const agent = netAgent(t, ['api.github.com', '*.npmjs.org:443', '127.0.0.1:8080']);
  const cases: readonly (readonly [string, number, RegExp])[] = [
    ['https://api.github.com/repos/x', 0, /^allow net api\.github\.com:443 \(net\.allow entry api\.github\.com\)\n/],
    ['http://API.github.com./', 0, /^allow net api\.github\.com:80 /],
    ['https://api.github.com:8443/', 1, /only for port 80 and 443/],
    ['https://registry.npmjs.org/x', 0, /^allow net registry\.npmjs\.org:443 \(net\.allow entry \*\.npmjs\.org:443\)/],
    ['http://registry.npmjs.org/x', 1, /only for port 443/],
    ['https://npmjs.org/', 1, /npmjs\.org is not in permissions\.net\.allow/],
    ['https://github.com/', 1, /github\.com is not in permissions\.net\.allow/],
    ['http://127.0.0.1:8080/', 0, /^allow net 127\.0\.0\.1:8080/],
    ['http://0x7f.1:8080/', 1, /ends in a number/],
    ['http://2130706433:8080/', 1, /ends in a number/],
    ['http://[::ffff:127.0.0.1]:8080/', 1, /IPv4 address inside/],
    ['https://user@api.github.com/', 1, /credentials/],
    ['ftp://api.github.com/', 1, /not an http/],
    ['https://bücher.example/', 1, /not ASCII/],
  ];
  for (const [url, status, expected] of cases) {
    const result = await runCliCaptured(['check', agent, 'net', url, '--cwd', ws], { env: env(t) });
    t.is(result.status, status, `${url}: ${result.stdout}${result.stderr}`);
    t.regex(result.stdout, expected, url);
    if (status === 1) t.regex(result.stdout, /code: ZB_POLICY_NET_DENIED/, url);
  }
});

test('check net: with no net.allow every URL is denied, and with --confine off an agent with hosts is refused', async (t) => {
  const ws = workspace(t);
  const none = await runCliCaptured(['check', path.join(EXAMPLES_DIR, 'code-reviewer'), 'net', 'https://api.github.com/', '--cwd', ws, '--json'], { env: env(t) });
  t.is(none.status, 1);
  t.like(JSON.parse(none.stdout), { allowed: false, code: 'ZB_POLICY_NET_DENIED' });
  const off = await runCliCaptured(['check', netAgent(t, ['api.github.com']), 'net', 'https://api.github.com/', '--cwd', ws, '--confine', 'off', '--json'], { env: env(t) });
  t.is(off.status, 1);
  t.like(JSON.parse(off.stdout), { allowed: false, code: 'ZB_CONFINEMENT_NET_UNCONFINED' });
});
