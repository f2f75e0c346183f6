// `zotbox init` (issue 13, item 6): a minimal agent that verify, check and run
// accept as it is, created only in a new or empty directory.
import test from 'ava';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { skillDescription } from '../../src/host/run/run-plan.js';
import { runCliCaptured } from '../fixtures/cli-harness.js';
import { EXAMPLES_DIR } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

const SKILL = 'skills/cite-sources/SKILL.md';
/** The files init writes, in the order it reports them. */
const FILES = ['manifest.json', 'AGENT.md', SKILL];

interface VerifyJson {
  readonly ok: boolean;
  readonly name: string;
  readonly warnings: readonly string[];
}

test('init DIR creates manifest.json, AGENT.md and one skill, and verify accepts them without a warning', async (t) => {
  const dir = tempDir(t);
  const created = await runCliCaptured(['init', 'helper'], { cwd: dir });
  t.is(created.status, 0, created.stderr);
  t.is(created.stderr, '');
  t.regex(created.stdout, /^created agent "helper" in .*\/helper:\n {2}manifest\.json\n {2}AGENT\.md\n {2}skills\/cite-sources\/SKILL\.md\n/);
  t.regex(created.stdout, /\n {2}zotbox verify helper\n/);
  t.deepEqual(readdirSync(path.join(dir, 'helper'), { recursive: true }).map(String).sort(), ['AGENT.md', 'manifest.json', 'skills', 'skills/cite-sources', SKILL]);
  const verified = await runCliCaptured(['verify', 'helper', '--json'], { cwd: dir });
  t.is(verified.status, 0, verified.stderr);
  const report = JSON.parse(verified.stdout) as VerifyJson;
  t.is(report.name, 'helper');
  t.deepEqual(report.warnings, []);
});

test('the agent init creates reads the workspace and nothing else: check allows a read and denies a write and bash', async (t) => {
  const dir = tempDir(t);
  t.is((await runCliCaptured(['init', 'agent'], { cwd: dir })).status, 0);
  const workspace = path.join(EXAMPLES_DIR, 'workspaces', 'sample-project');
  const agent = path.join(dir, 'agent');
  const read = await runCliCaptured(['check', agent, 'read', 'README.md', '--cwd', workspace]);
  t.is(read.status, 0, read.stdout);
  const write = await runCliCaptured(['check', agent, 'write', 'README.md', '--cwd', workspace, '--json']);
  t.is(write.status, 1);
  t.is((JSON.parse(write.stdout) as { code: string }).code, 'ZB_POLICY_NO_PERMISSION');
  const bash = await runCliCaptured(['check', agent, 'bash', 'ls', '--cwd', workspace, '--json']);
  t.is(bash.status, 1);
  t.is((JSON.parse(bash.stdout) as { code: string }).code, 'ZB_POLICY_NO_PERMISSION');
});

test("the skill's front matter names its directory and has the description the run shows the model", async (t) => {
  const dir = tempDir(t);
  t.is((await runCliCaptured(['init', 'agent'], { cwd: dir })).status, 0);
  const text = readFileSync(path.join(dir, 'agent', SKILL), 'utf8');
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text);
  t.truthy(front, 'SKILL.md starts with a front matter block');
  const fields = Object.fromEntries(front![1]!.split('\n').map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
  t.deepEqual(Object.keys(fields), ['name', 'description']);
  t.is(fields['name'], 'cite-sources');
  t.is(skillDescription(text), fields['description'] ?? '');
  t.true((fields['description'] ?? '').length > 20);
  t.regex(readFileSync(path.join(dir, 'agent', 'AGENT.md'), 'utf8'), /cite-sources/, 'AGENT.md tells the model to use the skill');
});

test('the default DIR is the current directory, and the name is made from its name', async (t) => {
  const dir = path.join(tempDir(t), 'My Agent_2');
  mkdirSync(dir);
  const created = await runCliCaptured(['init', '--json'], { cwd: dir });
  t.is(created.status, 0, created.stderr);
  t.deepEqual(JSON.parse(created.stdout), { ok: true, directory: dir, name: 'my-agent_2', files: FILES });
  t.is((JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8')) as { name: string }).name, 'my-agent_2');
});

test('--name sets the agent name', async (t) => {
  const dir = tempDir(t);
  t.is((await runCliCaptured(['init', 'x', '--name', 'code.helper'], { cwd: dir })).status, 0);
  const verified = JSON.parse((await runCliCaptured(['verify', 'x', '--json'], { cwd: dir })).stdout) as VerifyJson;
  t.is(verified.name, 'code.helper');
});

test('an invalid --name is refused with ZB_OPTION_INVALID before anything is written', async (t) => {
  const dir = tempDir(t);
  const result = await runCliCaptured(['init', 'x', '--name', 'Code Helper'], { cwd: dir });
  t.is(result.status, 2);
  t.regex(result.stderr, /^zotbox: error\[ZB_OPTION_INVALID\]: --name "Code Helper" is not a valid agent name: it must use only lowercase letters/);
  t.deepEqual(readdirSync(dir), []);
});

test('a directory name no agent name can be made from asks for --name', async (t) => {
  const dir = path.join(tempDir(t), '___');
  mkdirSync(dir);
  const result = await runCliCaptured(['init'], { cwd: dir });
  t.is(result.status, 2);
  t.regex(result.stderr, /^zotbox: error\[ZB_OPTION_INVALID\]: .*"___".* --name NAME/);
  t.deepEqual(readdirSync(dir), []);
});

test('a non-empty target is refused with ZB_INIT_TARGET and the fix, and nothing in it changes', async (t) => {
  const dir = tempDir(t);
  writeFileSync(path.join(dir, 'notes.txt'), 'mine');
  const result = await runCliCaptured(['init', '--json'], { cwd: dir });
  t.is(result.status, 1);
  const error = JSON.parse(result.stdout) as { type: string; code: string; details: { path: string } };
  t.is(error.code, 'ZB_INIT_TARGET');
  t.is(error.details.path, dir);
  t.regex(result.stderr, /is not empty.* Fix: .*zotbox init NEW-DIR/);
  t.deepEqual(readdirSync(dir), ['notes.txt']);
  t.is(readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'mine');
});

test('a target that is a file is refused with ZB_INIT_TARGET', async (t) => {
  const dir = tempDir(t);
  writeFileSync(path.join(dir, 'taken'), 'x');
  const result = await runCliCaptured(['init', 'taken'], { cwd: dir });
  t.is(result.status, 1);
  t.regex(result.stderr, /^zotbox: error\[ZB_INIT_TARGET\]: .*taken is not a directory/);
  t.is(readFileSync(path.join(dir, 'taken'), 'utf8'), 'x');
});

test('an existing empty directory is used, and missing parents are created', async (t) => {
  const dir = tempDir(t);
  mkdirSync(path.join(dir, 'empty'));
  t.is((await runCliCaptured(['init', 'empty'], { cwd: dir })).status, 0);
  t.is((await runCliCaptured(['init', 'a/b/c'], { cwd: dir })).status, 0);
  t.deepEqual(readdirSync(path.join(dir, 'a/b/c')).sort(), ['AGENT.md', 'manifest.json', 'skills']);
});

test('the agent init creates runs: the skill is offered and loads, and the read goes through', async (t) => {
  const dir = tempDir(t);
  t.is((await runCliCaptured(['init', 'agent'], { cwd: dir })).status, 0);
  const transcript = path.join(dir, 'replay.json');
  writeFileSync(
    transcript,
    JSON.stringify({
      zotbox_replay: 1,
      model: 'claude-sonnet-4-5',
      turns: [
        {
          content: [
            { type: 'tool_use', id: 't1', name: 'skill', input: { name: 'cite-sources' } },
            { type: 'tool_use', id: 't2', name: 'read', input: { path: 'README.md' } },
          ],
          stop: 'tool_use',
          usage: { input_tokens: 1, output_tokens: 1 },
        },
        { content: [{ type: 'text', text: 'It is a sample project (README.md:1).' }], stop: 'end', usage: { input_tokens: 1, output_tokens: 1 } },
      ],
    }),
  );
  const workspace = path.join(EXAMPLES_DIR, 'workspaces', 'sample-project');
  const run = await runCliCaptured(['run', path.join(dir, 'agent'), 'What is this?', '--cwd', workspace, '--replay', transcript, '--json', '-y', '--no-session'], {
    env: { ZOTBOX_HOME: path.join(dir, 'state') },
  });
  t.is(run.status, 0, run.stderr);
  const events = run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { type: string; tool?: string; ok?: boolean; status?: string });
  t.deepEqual(
    events.filter((e) => e.type === 'tool.result').map((e) => [e.tool, e.ok]),
    [
      ['skill', true],
      ['read', true],
    ],
  );
  t.is(events.at(-1)?.status, 'completed');
});

test('the next steps quote a DIR the shell would split, so they can be pasted as they are', async (t) => {
  const dir = tempDir(t);
  const created = await runCliCaptured(['init', "it's mine"], { cwd: dir });
  t.is(created.status, 0, created.stderr);
  t.regex(created.stdout, /\n {2}zotbox verify 'it'\\''s mine'\n/);
  t.is((JSON.parse(readFileSync(path.join(dir, "it's mine", 'manifest.json'), 'utf8')) as { name: string }).name, 'it-s-mine');
});
