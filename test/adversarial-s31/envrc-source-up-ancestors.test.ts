// Review s31, tool-file references (briefed without the feature's tests). `source_up NAME` and
// `source_up_if_exists NAME` are read as `../NAME` (tool-file-references.ts), but direnv's stdlib
// (`direnv stdlib`: _source_up runs `cd .. && find_up "$file"`) sources the first NAME in ANY
// ancestor directory. With the .envrc two levels inside a write scope and no a/.envrc.shared,
// a command plants <scope>/.envrc.shared, and the user's shell runs it on entering a/b.
// Expected by hand: every ancestor's NAME inside the scopes is protected (or the line is
// unresolved, which refuses every writer). (Failed on 08410a8; fixed: source_up names NAME, or
// .envrc, in every ancestor up to /, each protected where it lies in a write scope.)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { toolFileReferences } from '../../src/host/executors/confine/tool-file-references.js';
import { makeWorld, runAttack, type World } from '../adversarial21/world.js';

for (const directive of ['source_up', 'source_up_if_exists']) {
  test(`${directive} NAME protects NAME in every ancestor inside the scope, as direnv's find_up reads it`, (t) => {
    const scope = mkdtempSync(path.join(os.tmpdir(), 'zotbox-s31-envrc-'));
    t.teardown(() => rmSync(scope, { recursive: true, force: true }));
    mkdirSync(path.join(scope, 'a', 'b'), { recursive: true });
    const envrc = path.join(scope, 'a', 'b', '.envrc');
    writeFileSync(envrc, `${directive} .envrc.shared\n`);
    const found = toolFileReferences([envrc], [scope]);
    const paths = found.locations.map((location) => location.path);
    t.log(paths, found.unresolved);
    t.true(paths.includes(path.join(scope, 'a', '.envrc.shared')), 'the parent one (the control)');
    t.true(found.unresolved.length > 0 || paths.includes(path.join(scope, '.envrc.shared')), 'the grandparent one, which direnv sources when the parent has none');
  });

  test(`${directive} with no name protects the .envrc of every ancestor, and a name with a directory in every ancestor too`, (t) => {
    const scope = mkdtempSync(path.join(os.tmpdir(), 'zotbox-s31-envrc-'));
    t.teardown(() => rmSync(scope, { recursive: true, force: true }));
    mkdirSync(path.join(scope, 'a', 'b'), { recursive: true });
    const envrc = path.join(scope, 'a', 'b', '.envrc');
    writeFileSync(envrc, `${directive}\n${directive} conf/shared.sh\n`);
    const found = toolFileReferences([envrc], [scope]);
    t.deepEqual(
      found.locations.map((location) => path.relative(scope, location.path)).sort(),
      ['.envrc', 'a/.envrc', 'a/conf/shared.sh', 'conf/shared.sh'],
      'outside the scope (above it) nothing is protected: nothing there is writable',
    );
    t.deepEqual(found.unresolved, []);
  });
}

test("a scope's NAME above the .envrc's parent is read as direnv code too: what it sources is protected", (t) => {
  const scope = mkdtempSync(path.join(os.tmpdir(), 'zotbox-s31-envrc-'));
  t.teardown(() => rmSync(scope, { recursive: true, force: true }));
  mkdirSync(path.join(scope, 'a', 'b'), { recursive: true });
  writeFileSync(path.join(scope, 'a', 'b', '.envrc'), 'source_up .envrc.shared\n');
  writeFileSync(path.join(scope, '.envrc.shared'), 'source_env_if_exists .envrc.private\n');
  const found = toolFileReferences([path.join(scope, 'a', 'b', '.envrc')], [scope]);
  t.true(
    found.locations.some((location) => location.path === path.join(scope, '.envrc.private')),
    found.locations.map((location) => location.path).join(', '),
  );
});

/** The user's shell entering `directory` with direnv, the .envrc there allowed: direnv's hook runs `direnv export`. */
function userEnters(home: string, directory: string): void {
  const env = { PATH: '/usr/bin:/bin', HOME: home };
  mkdirSync(home, { recursive: true });
  execFileSync('direnv', ['allow', directory], { env, stdio: 'ignore' });
  try {
    execFileSync('direnv', ['export', 'bash'], { cwd: directory, env, stdio: 'ignore' });
  } catch {
    // what counts is the mark
  }
}

function nestedEnvrc(t: ExecutionContext): World {
  const world = makeWorld(t);
  mkdirSync(path.join(world.workspace, 'a', 'b'), { recursive: true });
  writeFileSync(path.join(world.workspace, 'a', 'b', '.envrc'), 'source_up_if_exists .envrc.shared\n');
  writeFileSync(path.join(world.workspace, 'README.md'), 'hello\n');
  world.git('add', '-A');
  world.git('commit', '-qm', 'init');
  return world;
}

test("real direnv sources the grandparent's NAME when the parent has none (what the model above stands for)", (t) => {
  const world = nestedEnvrc(t);
  writeFileSync(path.join(world.workspace, '.envrc.shared'), `touch ${world.mark}\n`);
  userEnters(path.join(world.root, 'user'), path.join(world.workspace, 'a', 'b'));
  t.true(existsSync(world.mark), "direnv's source_up did not reach the grandparent: the model protects more than it needs");
});

test('the write tool never plants NAME in an ancestor the .envrc source_up reaches', async (t) => {
  const world = nestedEnvrc(t);
  const result = await runAttack(world, { mode: 'none' }, [{ tool: 'write', input: { path: '.envrc.shared', content: `touch ${world.mark}\n` } }]);
  t.log(result.stdout);
  t.regex(result.stdout, /ZB_POLICY_PATH_PROTECTED/u);
  t.regex(result.stdout, /named by [^"]*a\/b\/\.envrc line 1/u, 'the reason names the .envrc line');
  t.false(existsSync(path.join(world.workspace, '.envrc.shared')));
  userEnters(path.join(world.root, 'user'), path.join(world.workspace, 'a', 'b'));
  t.false(existsSync(world.mark), "the agent's file ran as the user when their shell entered a/b");
});

test('a command that plants NAME in an ancestor has it removed and the run stopped', async (t) => {
  const world = nestedEnvrc(t);
  const result = await runAttack(world, { mode: 'allowlist', allow: ['python3'] }, [
    { tool: 'write', input: { path: 'k.py', content: `open('.envrc.shared', 'w').write('touch ${world.mark}')\n` } },
    { tool: 'bash', input: { command: 'python3 k.py' } },
  ]);
  t.log(result.stdout);
  t.regex(result.stdout, /ZB_CONFINEMENT_PROTECTED_FILE/u);
  t.false(existsSync(path.join(world.workspace, '.envrc.shared')));
  userEnters(path.join(world.root, 'user'), path.join(world.workspace, 'a', 'b'));
  t.false(existsSync(world.mark));
});
