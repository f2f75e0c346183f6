// The package as a user gets it (issue 27): `npm pack` once, then the tarball installed
// globally (`npm install -g --prefix`) and as a dependency of a fresh project, each in a
// temporary folder, with the user's npm configuration and the real registry. Everything
// then runs outside the repository (cwd, HOME and ZOTBOX_HOME temporary): the installed
// `zotbox --version`, a replayed run with a real sandboxed command, and the library
// imported from the fresh project in ESM and in CommonJS. No registry, no pass: a failed
// install fails the test.
//
// Time: isolated-vm compiles from C++ source on every install (no prebuilt binary is
// reachable here), minutes each. So it is compiled once: the dependency install starts
// from the global install's built dependencies (isolated-vm, zstd-napi: the same
// versions, from the same tarball's lockless resolve), which npm finds satisfying and
// keeps; zotbox itself is still installed from the tarball and builds its own native
// module there.
import test from 'ava';
import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../fixtures/paths.js';
import { ZOTBOX_VERSION } from '../../src/version.js';

const run = promisify(execFile);
/** The packages whose install scripts build native modules; npm 11 warns of install scripts no allowScripts covers. */
const ALLOW_SCRIPTS = '--allow-scripts=zotbox,isolated-vm,zstd-napi';
const INSTALL_BUDGET_MS = 30 * 60_000;
const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'zb-pack-')));
test.after.always(() => rmSync(root, { recursive: true, force: true }));

/**
 * npm's environment: the user's, less what an outer `npm test` injects (npm_config_prefix=/usr would send the
 * project's install there, npm_config_local_prefix to the repository). HOME stays: it finds the user's ~/.npmrc.
 */
function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')));
}

async function npm(args: readonly string[], cwd: string): Promise<string> {
  try {
    return (await run('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, env: npmEnv(), maxBuffer: 64 << 20, encoding: 'utf8' })).stdout;
  } catch (error) {
    const failed = error as { message: string; stderr?: string };
    throw new Error(`npm ${args.join(' ')} (in ${cwd}) failed; is the registry reachable with this user's npm config?\n${failed.stderr ?? failed.message}`);
  }
}

interface Installs {
  /** PREFIX/bin of the global install, and the package folder under it. */
  readonly globalBin: string;
  readonly globalPackage: string;
  /** The fresh project that depends on the tarball. */
  readonly project: string;
}

interface Packed {
  readonly tarball: string;
  readonly files: readonly string[];
}

/**
 * `npm pack` of the repository, once for the file. Without its prepack script: that rebuilds dist/, test files and
 * all, under the running suite; the suite's own build (`npm test`'s pretest) is what is packed.
 */
async function pack(): Promise<Packed> {
  const packed = path.join(root, 'pack');
  mkdirSync(packed);
  const [manifest] = JSON.parse(await npm(['pack', '--json', '--ignore-scripts', '--pack-destination', packed], REPO_ROOT)) as [{ filename: string; files: { path: string }[] }];
  return { tarball: path.join(packed, manifest.filename), files: manifest.files.map((file) => file.path) };
}

let packing: Promise<Packed> | undefined;

async function install(): Promise<Installs> {
  const { tarball } = await (packing ??= pack());
  // --prefix moves npm's global config to PREFIX/etc/npmrc: the user's own is named (a registry, a proxy's CA file).
  const globalConfig = (await npm(['config', 'get', 'globalconfig'], root)).trim();
  const prefix = path.join(root, 'global');
  await npm(['install', '-g', '--prefix', prefix, '--globalconfig', globalConfig, '--prefer-offline', ALLOW_SCRIPTS, tarball], root);
  const globalPackage = path.join(prefix, 'lib', 'node_modules', 'zotbox');
  const project = path.join(root, 'project');
  mkdirSync(project);
  writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'zotbox-consumer', version: '1.0.0', private: true }));
  // The global install's built dependencies, which npm keeps as they satisfy the tarball's ranges (see the top).
  cpSync(path.join(globalPackage, 'node_modules'), path.join(project, 'node_modules'), { recursive: true, verbatimSymlinks: true });
  await npm(['install', '--prefer-offline', ALLOW_SCRIPTS, tarball], project);
  return { globalBin: path.join(prefix, 'bin'), globalPackage, project };
}

let installing: Promise<Installs> | undefined;
function installs(t: { timeout: (ms: number, message?: string) => void }): Promise<Installs> {
  t.timeout(INSTALL_BUDGET_MS, 'npm pack and two installs from the registry, isolated-vm compiled from source once');
  return (installing ??= install());
}

/** A small agent (bash allowlist `ls`), a workspace with one file and a transcript that lists it, outside the repository. */
function makeAgent(name: string): { agent: string; workspace: string; transcript: string; state: string; home: string } {
  const dir = path.join(root, name);
  const agent = path.join(dir, 'agent');
  const workspace = path.join(dir, 'workspace');
  for (const folder of [agent, workspace, path.join(dir, 'home'), path.join(dir, 'state')]) mkdirSync(folder, { recursive: true });
  writeFileSync(
    path.join(agent, 'manifest.json'),
    JSON.stringify({ zotfile: 1, name: 'lister', version: '0.1.0', permissions: { fs: { read: ['${workspace}'] }, bash: { mode: 'allowlist', allow: ['ls'] } } }),
  );
  writeFileSync(path.join(agent, 'AGENT.md'), 'List the workspace.\n');
  writeFileSync(path.join(workspace, 'packed-and-installed.txt'), 'hello\n');
  const usage = { input_tokens: 0, output_tokens: 0 };
  const turns = [
    { content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }], stop: 'tool_use', usage },
    { content: [{ type: 'text', text: 'listed from the install' }], stop: 'end', usage },
  ];
  const transcript = path.join(dir, 'replay.json');
  writeFileSync(transcript, JSON.stringify({ zotbox_replay: 1, model: 'claude-sonnet-4-5', turns }));
  return { agent, workspace, transcript, state: path.join(dir, 'state'), home: path.join(dir, 'home') };
}

/** Runs a program with only PATH, HOME and ZOTBOX_HOME set, from `cwd`. */
async function outside(file: string, args: readonly string[], cwd: string, env: { PATH: string; HOME: string; ZOTBOX_HOME: string }) {
  try {
    const { stdout, stderr } = await run(file, args, { cwd, env, encoding: 'utf8', maxBuffer: 16 << 20 });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string; message: string };
    return { status: typeof failed.code === 'number' ? failed.code : -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? failed.message };
  }
}

type Event = Record<string, unknown>;
const events = (stdout: string): Event[] =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Event);

test('the tarball holds what runs, the native sources and profiles, and nothing of the development tree', async (t) => {
  const { files } = await (packing ??= pack());
  for (const needed of [
    'package.json',
    'bin/zotbox.js',
    'dist/src/cli.js',
    'dist/src/index.js',
    'dist/src/index.d.ts',
    'dist/src/worker/pool-task.js',
    'binding.gyp',
    'native/inotify.c',
    'native/fd-passing.c',
    'native/warm-init.c',
    'profiles/zotbox-seccomp.json',
    'README.md',
  ]) {
    t.true(files.includes(needed), `${needed} is in the tarball`);
  }
  const development = files.filter(
    (file) => /^(?:src|test|bench|scripts|build|node_modules|\.ci)\/|^dist\/(?!src\/)/.test(file) || (file.endsWith('.ts') && !file.endsWith('.d.ts')) || file.endsWith('.map'),
  );
  t.deepEqual(development, [], 'no sources, source maps (their sources are not shipped), tests, benches, scripts or build output');
});

for (const how of ['global', 'dependency'] as const) {
  test(`installed as a ${how}, \`zotbox --version\` and a replayed run work from a folder outside the repository`, async (t) => {
    const installed = await installs(t);
    const bin = how === 'global' ? installed.globalBin : path.join(installed.project, 'node_modules', '.bin');
    const packageDir = how === 'global' ? installed.globalPackage : path.join(installed.project, 'node_modules', 'zotbox');
    for (const built of ['zotbox_inotify.node', 'zotbox_fd_passing.node', 'zotbox_warm_init']) {
      t.true(existsSync(path.join(packageDir, 'build', 'Release', built)), `the install built ${built}`);
    }
    const { agent, workspace, transcript, state, home } = makeAgent(`cli-${how}`);
    const session = path.join(home, 'session.jsonl');
    const env = { PATH: `${bin}:/usr/local/bin:/usr/bin:/bin`, HOME: home, ZOTBOX_HOME: state };
    const version = await outside('zotbox', ['--version'], home, env);
    t.is(version.status, 0, version.stderr);
    t.is(version.stdout, `${ZOTBOX_VERSION}\n`);
    // Help names the installed package's own docs, a file the user can open (not a path inside a clone).
    const help = await outside('zotbox', ['--help'], home, env);
    t.is(help.status, 0, help.stderr);
    const docs = /^Documentation: (.+)$/m.exec(help.stdout)?.[1];
    t.is(docs, path.join(realpathSync(packageDir), 'docs', 'cli.md'));
    t.true(existsSync(docs ?? ''), `${docs ?? 'no Documentation line'} exists`);
    const result = await outside('zotbox', ['run', agent, 'list the files', '--replay', transcript, '-y', '--cwd', workspace, '--session', session, '--json'], home, env);
    t.is(result.status, 0, result.stderr);
    const all = events(result.stdout);
    t.like(
      all.find((event) => event['type'] === 'tool.result'),
      { tool: 'bash', ok: true, exit_code: 0 },
    );
    t.true(readFileSync(session, 'utf8').includes('packed-and-installed.txt'), 'the sandboxed ls listed the workspace');
    t.like(all.at(-1), { type: 'run.end', status: 'completed', final_text: 'listed from the install' });
  });
}

/** The library from the fresh project: a replayed run through runAgent, printing the events as JSON lines. */
const LIBRARY_RUN = `
  const [agent, workspace, transcript] = process.argv.slice(2);
  if (typeof zotbox.ZotboxError !== 'function' || typeof zotbox.loadAgent !== 'function') throw new Error('the exports are missing');
  for await (const event of zotbox.runAgent({ reference: agent, cwd: workspace, prompt: 'list the files', replayFile: transcript, yes: true })) {
    console.log(JSON.stringify(event));
  }
`;

for (const [kind, file, source] of [
  ['ESM import', 'esm.mjs', `import * as zotbox from 'zotbox';\n${LIBRARY_RUN}`],
  ['CommonJS require', 'cjs.cjs', `const zotbox = require('zotbox');\n(async () => {${LIBRARY_RUN}})().catch((error) => {\n  console.error(error);\n  process.exitCode = 1;\n});\n`],
] as const) {
  test(`the fresh project loads the library with ${kind} and runs an agent`, async (t) => {
    const installed = await installs(t);
    const { agent, workspace, transcript, state, home } = makeAgent(`library-${file}`);
    const script = path.join(installed.project, file);
    writeFileSync(script, source);
    const result = await outside(process.execPath, [script, agent, workspace, transcript], installed.project, { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: home, ZOTBOX_HOME: state });
    t.is(result.status, 0, result.stderr);
    t.notRegex(result.stderr, /ExperimentalWarning|ERR_REQUIRE_ESM/);
    const all = events(result.stdout);
    t.like(
      all.find((event) => event['type'] === 'tool.result'),
      { tool: 'bash', ok: true },
    );
    t.like(all.at(-1), { type: 'run.end', status: 'completed', final_text: 'listed from the install' });
  });
}
