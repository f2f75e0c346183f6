// A skill's bundled files (issue 25), in whole replayed runs with the real gate
// and the real sandbox: the skill tool says where its folder is and what it holds;
// the read tool reads it at /zotbox/skills/<name>/ without any scope; a bundled
// script runs confined; nothing in /zotbox can be written by a tool, a command or a
// script; the ways out (.., links, the host's own /zotbox) end where they must; two
// runs of different agents each see their own package; a .zot and a GitHub-loaded
// agent behave the same.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { formatConsentText } from '../../src/host/consent/consent-text.js';
import { packAgent } from '../../src/host/load/pack-agent.js';
import type { RunEvent } from '../../src/host/run/run-events.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { bash, decisions, uniqueSkillName, skillWorld as world, writeAgent } from '../fixtures/skill-world.js';
import { buildTar, gzipCompress, type TarPiece } from '../fixtures/tar-builder.js';

test('load the skill, read its reference, run its script (--help, then a real job into the workspace), all confined', async (t) => {
  const w = world(t);
  const { events, outputs } = await w.run([
    { name: 'skill', input: { name: 'demo' } },
    { name: 'read', input: { path: '/zotbox/skills/demo/reference.md' } },
    { name: 'bash', input: { command: 'python3 /zotbox/skills/demo/scripts/make.py --help' } },
    { name: 'bash', input: { command: `cd /zotbox/skills/demo && python3 scripts/make.py ${w.ws}/made.txt && sh scripts/count.sh a b` } },
    { name: 'bash', input: { command: 'ls /zotbox/skills/demo/examples /zotbox/assets/fonts' } },
    { name: 'read', input: { path: '/zotbox/assets/fonts/mono.ttf' } },
    { name: 'bash', input: { command: 'python3 /zotbox/skills/demo/scripts/where.py' } },
  ]);
  const [skill, reference, help, job, listing, asset] = outputs as [string, string, string, string, string, string];
  t.like(JSON.parse(skill), {
    name: 'demo',
    directory: '/zotbox/skills/demo/',
    files: ['SKILL.md', 'examples/one.txt', 'reference.md', 'scripts/count.sh', 'scripts/make.py', 'scripts/where.py', 'scripts/write-beside.py'],
    filesNotListed: 0,
  });
  t.is((JSON.parse(reference) as { content: string }).content, '# demo reference\nThe output line is MADE BY demo.');
  t.is(bash(help).stdout, 'usage: make.py OUT\n');
  t.is(bash(job).stdout, '2 arguments\n');
  t.is(readFileSync(path.join(w.ws, 'made.txt'), 'utf8'), 'MADE BY demo\n');
  t.is(bash(listing).stdout, '/zotbox/assets/fonts:\nmono.ttf\n\n/zotbox/skills/demo/examples:\none.txt\n');
  t.like(JSON.parse(asset), { path: '/zotbox/assets/fonts/mono.ttf', size: 40_000, binary: true });
  t.like(events.at(-1), { type: 'run.end', status: 'completed' });
  // Where the sandbox's /zotbox/skills came from, as the kernel tells the command: the run's extraction, gone after the run.
  const source = bash(outputs[6]!).stdout.trim();
  // Below the state directory (no scope reaches it, every sandbox masks it), named after the process; gone after the run.
  const made = /\/images\/(\d+-[^/]+)\/skills$/u.exec(source)?.[1];
  t.is(made?.startsWith(`${process.pid}-`), true, source);
  t.deepEqual(readdirSync(path.join(w.root, 'state', 'images')), [], "the run's extraction is removed when it ends");
});

test('nothing in /zotbox is writable: the write and edit tools are denied, and a command or a script writing there is refused by the sandbox', async (t) => {
  const w = world(t);
  const { events, outputs } = await w.run([
    { name: 'write', input: { path: '/zotbox/skills/demo/reference.md', content: 'changed' } },
    { name: 'edit', input: { path: '/zotbox/skills/demo/SKILL.md', old_string: 'Read', new_string: 'Ignore' } },
    { name: 'write', input: { path: '/zotbox/skills/new.md', content: 'x' } },
    { name: 'bash', input: { command: 'python3 /zotbox/skills/demo/scripts/write-beside.py' } },
    { name: 'bash', input: { command: 'python3 /zotbox/skills/demo/scripts/make.py /zotbox/skills/demo/out.txt' } },
  ]);
  const gate = decisions(events);
  t.deepEqual(
    gate.slice(0, 3).map((d) => [d.allowed, d.code]),
    [
      [false, 'ZB_POLICY_PATH_PROTECTED'],
      [false, 'ZB_POLICY_PATH_PROTECTED'],
      [false, 'ZB_POLICY_PATH_PROTECTED'],
    ],
  );
  const [, , , beside, written] = outputs as [string, string, string, string, string];
  t.is(bash(beside).stdout, 'REFUSED Read-only file system\n', 'the script ran, and the sandbox refused its write');
  t.regex(bash(written).stderr, /Read-only file system: '\/zotbox\/skills\/demo\/out\.txt'/u, 'the script ran, and the sandbox refused its output');
  t.like(events.at(-1), { type: 'run.end', status: 'completed' });
});

test('the ways out of /zotbox end where they must: ".." and a link planted in the workspace are decided on the host, outside every scope', async (t) => {
  // A skill name no host holds, so the planted link leads nowhere on this machine whatever its own /zotbox holds.
  const skill = uniqueSkillName();
  const w = world(t, skill);
  t.false(existsSync(`/zotbox/skills/${skill}`));
  const { events } = await w.run([
    { name: 'read', input: { path: `/zotbox/skills/${skill}/../../../etc/passwd` } },
    { name: 'read', input: { path: '/zotbox/skills/../../root/.bashrc' } },
    { name: 'bash', input: { command: `cat /zotbox/skills/${skill}/../../../etc/hostname` } },
    { name: 'write', input: { path: 'mklink.py', content: `import os\nos.symlink('/zotbox/skills/${skill}', 'link')\n` } },
    { name: 'bash', input: { command: 'python3 mklink.py' } },
    { name: 'read', input: { path: 'link/reference.md' } },
    { name: 'write', input: { path: 'link/planted.md', content: 'x' } },
    { name: 'read', input: { path: '/zotbox/skills/other/SKILL.md' } },
  ]);
  const gate = decisions(events);
  // Outside /zotbox once ".." leaves it: decided on the host, outside the read scopes.
  t.false(gate[0]!.allowed);
  t.false(gate[1]!.allowed);
  t.false(gate[2]!.allowed);
  t.true(gate[4]!.allowed, 'the link was made in the sandbox');
  t.true(!existsSync(path.join(w.ws, 'link')) && readlinkSync(path.join(w.ws, 'link')) === `/zotbox/skills/${skill}`);
  // The link is the host's: it leads to a /zotbox that is not the package, outside every scope.
  t.like(gate[5], { allowed: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
  t.like(gate[6], { allowed: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
  t.like(gate[7], { allowed: false, code: 'ZB_POLICY_PATH_OUTSIDE_SCOPE' });
  t.regex(gate[7]!.reason ?? '', /is not in this agent's package/u);
});

test('two runs of different agents at once each see only their own skills', async (t) => {
  const w = world(t);
  const second = path.join(w.root, 'second');
  writeAgent(second, 'other-agent', 'charts');
  const list = [{ name: 'bash', input: { command: 'ls /zotbox/skills' } }];
  const [mine, theirs] = await Promise.all([w.run(list), w.run(list, { agent: second, state: path.join(w.root, 'state-2') })]);
  t.is(bash(mine.outputs[0]!).stdout, 'demo\n');
  t.is(bash(theirs.outputs[0]!).stdout, 'charts\n');
});

test('a packed .zot behaves as the directory does', async (t) => {
  const w = world(t);
  const packed = path.join(w.root, 'skilled.zot');
  await packAgent(w.agent, packed, { cwd: w.root });
  const { outputs } = await w.run(
    [
      { name: 'read', input: { path: '/zotbox/skills/demo/reference.md' } },
      { name: 'bash', input: { command: `python3 /zotbox/skills/demo/scripts/make.py ${w.ws}/from-zot.txt` } },
    ],
    { agent: packed },
  );
  t.regex(outputs[0]!, /MADE BY demo/u);
  t.is(readFileSync(path.join(w.ws, 'from-zot.txt'), 'utf8'), 'MADE BY demo\n');
});

/** The agent directory as GitHub serves a repository holding it at skilled/: one top-level folder, no directory entries. */
function repositoryArchive(agent: string): Buffer {
  const files = readdirSync(agent, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  const pieces: TarPiece[] = files.map((entry) => {
    const full = path.join(entry.parentPath, entry.name);
    return { kind: 'file', name: `agents-abc123/skilled/${path.relative(agent, full)}`, data: readFileSync(full), mode: statSync(full).mode & 0o777 };
  });
  return gzipCompress(buildTar([{ kind: 'pax', global: true, records: { comment: 'abc123' } }, ...pieces]));
}

test('an agent loaded from GitHub behaves as the directory does: its skill files are read and run from /zotbox/skills', async (t) => {
  const w = world(t);
  const archive = repositoryArchive(w.agent);
  const requests: string[] = [];
  // A loopback server in GitHub's place (ZOTBOX_GITHUB_BASE): no test touches the network.
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url !== '/acme/agents/archive/HEAD.tar.gz') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/x-gzip', 'content-length': archive.length }).end(archive);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { events, outputs } = await w.run(
    [
      { name: 'skill', input: { name: 'demo' } },
      { name: 'read', input: { path: '/zotbox/skills/demo/reference.md' } },
      { name: 'bash', input: { command: `cd /zotbox/skills/demo && python3 scripts/make.py ${w.ws}/from-github.txt && sh scripts/count.sh a` } },
      { name: 'read', input: { path: '/zotbox/assets/fonts/mono.ttf' } },
    ],
    { agent: 'github:acme/agents/skilled', env: { ZOTBOX_GITHUB_BASE: base } },
  );
  t.deepEqual(requests, ['/acme/agents/archive/HEAD.tar.gz']);
  t.like(JSON.parse(outputs[0]!), { name: 'demo', directory: '/zotbox/skills/demo/', filesNotListed: 0 });
  t.regex(outputs[1]!, /MADE BY demo/u);
  t.is(bash(outputs[2]!).stdout, '1 arguments\n');
  t.is(readFileSync(path.join(w.ws, 'from-github.txt'), 'utf8'), 'MADE BY demo\n');
  t.like(JSON.parse(outputs[3]!), { path: '/zotbox/assets/fonts/mono.ttf', size: 40_000, binary: true });
  t.like(events.at(-1), { type: 'run.end', status: 'completed' });
  t.deepEqual(readdirSync(path.join(w.root, 'state', 'images')), [], "the run's extraction is removed when it ends");
});

test('unconfined, commands cannot reach /zotbox (denied, saying why) while the read tool still can', async (t) => {
  // A skill name no host holds: the read tool's answer can only have come from the package.
  const skill = uniqueSkillName();
  const w = world(t, skill);
  t.false(existsSync(`/zotbox/skills/${skill}`), 'this machine has no host /zotbox that the answer could have come from');
  const { events, outputs } = await w.run(
    [
      { name: 'read', input: { path: `/zotbox/skills/${skill}/reference.md` } },
      { name: 'bash', input: { command: `cat /zotbox/skills/${skill}/reference.md` } },
    ],
    { confine: 'off' },
  );
  const gate = decisions(events);
  t.true(gate[0]!.allowed);
  t.is((JSON.parse(outputs[0]!) as { content: string }).content, `# ${skill} reference\nThe output line is MADE BY ${skill}.`);
  t.false(gate[1]!.allowed);
  t.true((gate[1]!.reason ?? '').includes(`commands cannot reach /zotbox/skills/${skill}/reference.md: confinement is off for this run`), gate[1]!.reason);
});

test('inspect lists each skill with its file count and scripts; consent says that skills bundle scripts', async (t) => {
  const w = world(t);
  const inspected = await runCliCaptured(['inspect', w.agent, '--json'], { cwd: w.root });
  t.is(inspected.status, 0, inspected.stderr);
  t.deepEqual((JSON.parse(inspected.stdout) as { skills: unknown }).skills, [
    { name: 'demo', files: 7, scripts: ['scripts/count.sh', 'scripts/make.py', 'scripts/where.py', 'scripts/write-beside.py'] },
  ]);
  const text = await runCliCaptured(['inspect', w.agent], { cwd: w.root });
  t.regex(text.stdout, /^skills \(1\), each readable by the model at \/zotbox\/skills\/<name>\/:\n {2}demo: 7 files, scripts: scripts\/count\.sh, scripts\/make\.py, /mu);
  const consent = formatConsentText({
    name: 'skilled',
    version: '1.0.0',
    contentDigest: 'sha256:00',
    artifactDigest: undefined,
    permissions: { read: [w.ws], write: [], bash: { mode: 'allowlist', allow: ['python3'] }, confinement: 'bubblewrap' },
    skillScripts: [
      { name: 'demo', scripts: ['scripts/a.py', 'scripts/b.sh', 'scripts/c.py', 'scripts/d.py'] },
      { name: 'plain', scripts: [] },
    ],
  });
  t.true(consent.includes('  skills bundle scripts: demo (scripts/a.py, scripts/b.sh, scripts/c.py, …); they run only as commands, with their interpreter in the bash allowlist\n'), consent);
});

test('an extraction a dead process left behind (SIGKILL, SIGHUP) is removed by the next one made in the state directory', async (t) => {
  const w = world(t);
  const dead = spawnSync(process.execPath, ['-e', '']).pid;
  const leftover = path.join(w.root, 'state', 'images', `${dead}-left`);
  mkdirSync(path.join(leftover, 'skills', 'demo'), { recursive: true });
  writeFileSync(path.join(leftover, 'skills', 'demo', 'SKILL.md'), 'left behind\n');
  const { outputs } = await w.run([{ name: 'bash', input: { command: 'ls /zotbox/skills' } }]);
  t.is(bash(outputs[0]!).stdout, 'demo\n');
  t.false(existsSync(leftover));
  t.deepEqual(readdirSync(path.join(w.root, 'state', 'images')), []);
});

test('a package whose paths are too long to extract: each command is refused with the same clear error, and nothing is left', async (t) => {
  const w = world(t);
  // A state directory ~3,000 bytes deep, and an entry ~1,300 bytes long: the agent's folder holds it, the extraction cannot.
  let state = path.join(w.root, 'state-long');
  while (state.length < 3000) state = path.join(state, 's'.repeat(200));
  mkdirSync(state, { recursive: true });
  let relative = path.join('skills', 'demo');
  while (relative.length < 1100) relative = path.join(relative, 'd'.repeat(200));
  mkdirSync(path.join(w.agent, relative), { recursive: true });
  writeFileSync(path.join(w.agent, relative, 'f'.repeat(200)), 'x');
  const calls = [
    { name: 'bash', input: { command: 'ls /zotbox/skills' } },
    { name: 'bash', input: { command: 'ls /zotbox/skills' } },
    { name: 'read', input: { path: '/zotbox/skills/demo/reference.md' } },
  ];
  const { events, outputs } = await w.run(calls, { state });
  const results = events.filter((e): e is RunEvent & { type: 'tool.result' } => e.type === 'tool.result');
  t.deepEqual(
    results.map((r) => r.ok),
    [false, false, true],
  );
  for (const output of outputs.slice(0, 2)) {
    t.regex(output, /cannot make the agent's package available to commands at \/zotbox: a path in it is too long for this system/u);
    t.notRegex(output, /unexpected failure|ZB_INTERNAL/u);
  }
  t.regex(outputs[2]!, /The output line is MADE BY demo/u, 'the read tool still reads the package');
  t.deepEqual(readdirSync(path.join(state, 'images')), [], 'no partial extraction is left');
});
