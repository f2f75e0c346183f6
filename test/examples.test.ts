// The bundled example agents are what the README, the demo and later tests use:
// they must be valid zotfile source directories that declare what their README says.
import test from 'ava';
import { lstatSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLES_DIR } from './fixtures/paths.js';

const NAME_RULE = /^[a-z0-9]([a-z0-9._-]*[a-z0-9])?$/;

function readManifest(name: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path.join(EXAMPLES_DIR, name, 'manifest.json'), 'utf8')) as Record<string, unknown>;
}

test('every example directory is a zotfile with a valid name, an AGENT.md and a README', (t) => {
  // workspaces/, transcripts/, library/, evals/, ci/ and containers/ hold the demo's sample project, recorded runs, the embedding example, the eval suites, a CI workflow and the container recipes, not agents.
  const names = readdirSync(EXAMPLES_DIR, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !['workspaces', 'transcripts', 'library', 'evals', 'ci', 'containers'].includes(e.name))
    .map((e) => e.name);
  t.deepEqual(names.sort(), ['code-reviewer', 'repo-maintainer']);
  for (const name of names) {
    const manifest = readManifest(name);
    t.is(manifest['zotfile'], 1, name);
    t.is(manifest['name'], name, `${name}: the directory is named after the agent`);
    t.regex(String(manifest['name']), NAME_RULE);
    t.true(lstatSync(path.join(EXAMPLES_DIR, name, 'AGENT.md')).isFile(), `${name}/AGENT.md`);
    t.true(lstatSync(path.join(EXAMPLES_DIR, name, 'README.md')).isFile(), `${name}/README.md`);
    for (const entry of readdirSync(path.join(EXAMPLES_DIR, name), { recursive: true, withFileTypes: true })) {
      t.true(entry.isFile() || entry.isDirectory(), `${name}: ${entry.name} is a plain file or directory`);
    }
  }
});

test('code-reviewer reads the workspace, writes nothing, has no bash and bundles one skill', (t) => {
  const manifest = readManifest('code-reviewer');
  t.deepEqual(manifest['permissions'], { fs: { read: ['${workspace}'], write: [] }, bash: { mode: 'none' } });
  const skills = readdirSync(path.join(EXAMPLES_DIR, 'code-reviewer', 'skills'));
  t.deepEqual(skills, ['review-change']);
  t.regex(readFileSync(path.join(EXAMPLES_DIR, 'code-reviewer', 'skills', 'review-change', 'SKILL.md'), 'utf8'), /^---\nname: review-change\ndescription: /);
});

test('repo-maintainer reads and writes the workspace and its data, with a git/grep/ls allowlist', (t) => {
  const manifest = readManifest('repo-maintainer');
  t.deepEqual(manifest['permissions'], {
    fs: { read: ['${workspace}', '${agent_data}'], write: ['${workspace}', '${agent_data}'] },
    bash: { mode: 'allowlist', allow: ['git', 'grep', 'ls'] },
  });
  t.deepEqual(manifest['requirements'], { bin: ['git'] });
});

test('the demo transcript is a valid replay transcript for code-reviewer', async (t) => {
  const { readReplayTranscript } = await import('../src/host/providers/replay.js');
  const transcript = readReplayTranscript(path.join(EXAMPLES_DIR, 'transcripts', 'code-reviewer.json'));
  t.is(transcript.turns.at(-1)?.stop, 'end');
});
