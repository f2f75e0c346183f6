// Each command loads only what it uses (issue 11): `zotbox --help`, `--version`,
// `check` and `inspect`, started as the installed bin starts them, are recorded
// module by module (test/fixtures/module-recorder.ts) and compared with sets
// written here by hand. Not timed: start-up figures are in `npm run bench -- start`.
import test, { type ExecutionContext } from 'ava';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { BIN, EXAMPLES_DIR, REPO_ROOT } from '../fixtures/paths.js';
import { tempDir } from '../fixtures/temp.js';

const RECORDER = pathToFileURL(path.join(REPO_ROOT, 'dist', 'test', 'fixtures', 'module-recorder.js')).href;
const WORKSPACE = path.join(EXAMPLES_DIR, 'workspaces', 'sample-project');
const SRC = pathToFileURL(path.join(REPO_ROOT, 'dist', 'src')).href + '/';

interface Recorded {
  /** One entry per process that ran: its Node flags. */
  readonly processes: readonly (readonly string[])[];
  /** zotbox's own modules, relative to dist/src/ (bin/zotbox.js as "bin"). */
  readonly own: ReadonlySet<string>;
  /** npm packages by name. */
  readonly packages: ReadonlySet<string>;
}

function packageOf(url: string): string {
  const [first = '', second = ''] = url.slice(url.lastIndexOf('/node_modules/') + '/node_modules/'.length).split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/** Runs `node <bin> ...args` as its shebang does, with the recorder preloaded. */
function record(t: ExecutionContext, args: readonly string[]): Recorded {
  const log = path.join(tempDir(t), 'modules.log');
  const home = tempDir(t);
  const { NODE_OPTIONS: _dropped, ...env } = process.env;
  const result = spawnSync(process.execPath, ['--import', RECORDER, BIN, ...args], {
    cwd: WORKSPACE,
    env: { ...env, ZOTBOX_HOME: home, ZOTBOX_AGENT_CONSENT: '1', ZOTBOX_TEST_MODULE_LOG: log },
    encoding: 'utf8',
    timeout: 60_000,
  });
  t.is(result.status, 0, result.stderr);
  const processes: string[][] = [];
  const own = new Set<string>();
  const packages = new Set<string>();
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    const [, kind, value] = /^\d+ (flags|module) (.*)$/.exec(line) ?? [];
    if (kind === 'flags') processes.push(JSON.parse(value!) as string[]);
    else if (value?.includes('/node_modules/')) packages.add(packageOf(value));
    else if (value?.startsWith(SRC)) own.add(value.slice(SRC.length));
    else if (value === pathToFileURL(BIN).href) own.add('bin');
  }
  return { processes, own, packages };
}

/** What the CLI's dispatcher loads for every command line, written out by hand. */
const DISPATCH = ['bin', 'cli/launch.js', 'cli.js', 'cli/command-spec.js', 'cli/commands.js', 'cli/help.js', 'cli/package-docs.js', 'errors.js', 'version.js'];

/**
 * zotbox modules that no start-up path below may load: the pool, HTTP, the providers, the models, the worker.
 * (Heavy packages need no list: each test below states its exact package set, [] or ['shell-quote'],
 * and its single flagless process, so piscina, undici and isolated-vm are all excluded.)
 */
const HEAVY_OWN = /^(host\/providers\/|host\/models\/|host\/run\/(?!check-permission\.js)|worker\/|api\/run\.js|api\/github\.js|host\/load\/github\.js)/;

for (const args of [['--help'], ['--version'], ['check', '--help']]) {
  test(`zotbox ${args.join(' ')} loads the dispatcher and nothing else, no package at all, in one process without --no-node-snapshot`, (t) => {
    const recorded = record(t, args);
    t.deepEqual([...recorded.own].sort(), [...DISPATCH].sort());
    t.deepEqual([...recorded.packages], []);
    t.deepEqual(recorded.processes, [[]]);
  });
}

test('zotbox check AGENT read PATH loads neither the pool, HTTP, providers, zod, the bash gate nor the zstd binding', (t) => {
  const recorded = record(t, ['check', path.join(EXAMPLES_DIR, 'code-reviewer'), 'read', 'README.md']);
  t.deepEqual([...recorded.packages], []);
  t.deepEqual(
    [...recorded.own].filter((file) => HEAVY_OWN.test(file)),
    [],
  );
  // (policy/manifest-schema.js is loaded, a light module; zod, which it loads on demand, is not: no package above.)
  for (const file of ['policy/shell-decision.js', 'policy/shell-parse.js', 'archive/zstd-stream.js', 'archive/zstd-offload.js']) t.false(recorded.own.has(file), file);
  for (const file of ['host/run/check-permission.js', 'policy/path-decision.js', 'policy/manifest-shape.js']) t.true(recorded.own.has(file), `${file} was not recorded: did check run?`);
  t.deepEqual(recorded.processes, [[]]);
});

test('zotbox check AGENT bash LINE loads the bash gate and shell-quote, and still no pool, HTTP, providers or zod', (t) => {
  const recorded = record(t, ['check', path.join(EXAMPLES_DIR, 'repo-maintainer'), 'bash', 'ls -la | grep js']);
  t.deepEqual([...recorded.packages], ['shell-quote']);
  t.deepEqual(
    [...recorded.own].filter((file) => HEAVY_OWN.test(file)),
    [],
  );
  t.true(recorded.own.has('policy/shell-decision.js'));
});

test('zotbox inspect AGENT loads neither the pool, HTTP, providers, zod, the bash gate nor the zstd binding', (t) => {
  const recorded = record(t, ['inspect', path.join(EXAMPLES_DIR, 'code-reviewer')]);
  t.deepEqual([...recorded.packages], []);
  t.deepEqual(
    [...recorded.own].filter((file) => HEAVY_OWN.test(file) || file.startsWith('policy/argument-rules/') || file === 'policy/shell-decision.js'),
    [],
  );
  t.true(recorded.own.has('host/load/inspect-agent.js'), 'did inspect run?');
});

test('control: the recorder sees the pool, HTTP client, providers and zod when a replayed run loads them', (t) => {
  const recorded = record(t, ['run', path.join(EXAMPLES_DIR, 'code-reviewer'), '--replay', path.join(EXAMPLES_DIR, 'transcripts', 'code-reviewer.json'), '--no-session']);
  for (const name of ['piscina', 'undici', 'zod']) t.true(recorded.packages.has(name), name);
  t.true(recorded.own.has('host/providers/replay.js'));
});
