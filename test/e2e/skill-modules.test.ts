// A skill's scripts run as modules from its folder (issue 25: skill-creator's
// `cd /zotbox/skills/<name> && python3 -m scripts.X`), in whole replayed runs of a
// packed agent with the real gate and the real sandbox: the module that runs is the
// skill's file, found from the read-only folder; the same name from anywhere else,
// or past the folder (-I), is denied before anything runs.
import test from 'ava';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { packAgent } from '../../src/host/load/pack-agent.js';
import { bash, decisions, skillWorld } from '../fixtures/skill-world.js';

/** scripts/ as a package, and a module of it that says which file ran, from where, and writes its job's output. */
function addModule(agent: string): void {
  const scripts = path.join(agent, 'skills', 'demo', 'scripts');
  writeFileSync(path.join(scripts, '__init__.py'), '');
  writeFileSync(
    path.join(scripts, 'job.py'),
    [
      'import os, sys',
      "if sys.argv[1:] == ['--help']:",
      "    print('usage: python3 -m scripts.job OUT')",
      'else:',
      "    open(sys.argv[1], 'w').write('JOB DONE\\n')",
      "    print(__file__, sys.path[0], os.getcwd(), os.path.exists(os.path.join(os.path.dirname(__file__), '__pycache__')))",
      '',
    ].join('\n'),
  );
}

test("a packed agent's skill module runs confined from the skill's folder: the skill's own file, found there first, nothing written beside it", async (t) => {
  const w = skillWorld(t);
  addModule(w.agent);
  const packed = path.join(w.root, 'skilled.zot');
  await packAgent(w.agent, packed, { cwd: w.root });
  const { events, outputs } = await w.run(
    [
      { name: 'bash', input: { command: 'cd /zotbox/skills/demo && python3 -m scripts.job --help' } },
      { name: 'bash', input: { command: `cd /zotbox/skills/demo && python3 -m scripts.job ${w.ws}/job.txt` } },
    ],
    { agent: packed },
  );
  t.deepEqual(
    decisions(events).map((d) => d.allowed),
    [true, true],
  );
  t.is(bash(outputs[0]!).stdout, 'usage: python3 -m scripts.job OUT\n');
  const job = bash(outputs[1]!);
  t.is(job.exitCode, 0, job.stderr);
  // Which file ran, python's sys.path[0] and working directory, and whether python could cache its bytecode beside it.
  t.is(job.stdout, '/zotbox/skills/demo/scripts/job.py /zotbox/skills/demo /zotbox/skills/demo False\n');
  t.is(readFileSync(path.join(w.ws, 'job.txt'), 'utf8'), 'JOB DONE\n');
  t.like(events.at(-1), { type: 'run.end', status: 'completed' });
  t.deepEqual(readdirSync(path.join(w.root, 'state', 'images')), [], "the run's extraction is removed when it ends");
});

test('the same module from the workspace, where the agent can plant one, or with -I, which would look among installed packages, is denied before anything runs', async (t) => {
  const w = skillWorld(t);
  addModule(w.agent);
  // A planted package of the same name in the workspace: python would run it from there.
  mkdirSync(path.join(w.ws, 'scripts'));
  writeFileSync(path.join(w.ws, 'scripts', '__init__.py'), '');
  writeFileSync(path.join(w.ws, 'scripts', 'job.py'), "open('planted-ran', 'w').write('x')\n");
  const { events, outputs } = await w.run([
    { name: 'bash', input: { command: 'python3 -m scripts.job' } },
    { name: 'bash', input: { command: 'cd /zotbox/skills/demo && python3 -I -m scripts.job --help' } },
    { name: 'bash', input: { command: 'cd /zotbox/skills/demo && python3 -m timeit pass' } },
    { name: 'bash', input: { command: 'cd /zotbox/skills/demo && python3 scripts/job.py --help' } },
  ]);
  t.deepEqual(
    decisions(events).map((d) => [d.allowed, d.code]),
    [
      [false, 'ZB_POLICY_SHELL_ARGUMENT'],
      [false, 'ZB_POLICY_SHELL_ARGUMENT'],
      [false, 'ZB_POLICY_SHELL_ARGUMENT'],
      [true, undefined],
    ],
  );
  t.regex(outputs[0]!, /from a skill's folder, a module the skill bundles/u);
  t.regex(outputs[1]!, /-I leaves the working directory off python's module path/u);
  t.regex(outputs[2]!, /timeit is a name python takes from its own library/u);
  t.is(bash(outputs[3]!).stdout, 'usage: python3 -m scripts.job OUT\n', 'the file itself still runs as a script');
  t.false(existsSync(path.join(w.ws, 'planted-ran')));
});
