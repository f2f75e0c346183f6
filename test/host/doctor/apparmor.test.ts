// The AppArmor fix (issue 23): what --print-apparmor prints and --fix-apparmor
// would install, its refusal without root, and the recipes that carry the step.
import test from 'ava';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { BIN, REPO_ROOT } from '../../fixtures/paths.js';

const cli = (args: readonly string[], prefix: readonly string[] = []) => {
  const argv = [...prefix, process.execPath, BIN, ...args];
  return spawnSync(argv[0]!, argv.slice(1), { encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '/usr/bin:/bin', HOME: '/nonexistent' } });
};

test('--print-apparmor prints a profile for /usr/bin/bwrap alone that grants user namespaces and confines nothing else', (t) => {
  const { status, stdout } = cli(['doctor', '--print-apparmor']);
  t.is(status, 0);
  const rules = stdout.split('\n').filter((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  t.deepEqual(rules, ['abi <abi/4.0>,', 'include <tunables/global>', 'profile zotbox-bwrap /usr/bin/bwrap flags=(unconfined) {', '  userns,', '  include if exists <local/zotbox-bwrap>', '}']);
});

test('--fix-apparmor without root changes nothing and says what to run', (t) => {
  const { status, stderr, stdout } = cli(['doctor', '--fix-apparmor'], ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups']);
  t.is(status, 1, stdout + stderr);
  t.is(stdout, '', 'nothing is announced as written');
  t.regex(stderr, /ZB_DOCTOR_NOT_ROOT/u);
  t.regex(stderr, /sudo zotbox doctor --print-apparmor \| sudo tee \/etc\/apparmor\.d\/zotbox-bwrap >\/dev\/null && sudo apparmor_parser -r \/etc\/apparmor\.d\/zotbox-bwrap/u);
});

test('the GitHub Actions example installs the profile after bubblewrap and checks, before any eval', (t) => {
  const workflow = parse(readFileSync(path.join(REPO_ROOT, 'examples', 'ci', 'eval.yml'), 'utf8')) as { jobs: { eval: { 'runs-on': string; steps: { run?: string }[] } } };
  const runs = workflow.jobs.eval.steps.map((step) => step.run ?? '');
  t.is(workflow.jobs.eval['runs-on'], 'ubuntu-latest');
  const install = runs.findIndex((run) => run.includes('apt-get install -y bubblewrap'));
  const fix = runs.findIndex((run) => run.includes('sudo env "PATH=$PATH" npx --no-install zotbox doctor --fix-apparmor'));
  const evals = runs.findIndex((run) => run.includes('zotbox eval'));
  t.true(install >= 0 && install < fix && fix < evals, JSON.stringify(runs));
});

test("docs/eval.md's matrix recipe carries the same step, and docs/install.md gives a fix for every cause", (t) => {
  t.regex(
    readFileSync(path.join(REPO_ROOT, 'docs', 'eval.md'), 'utf8'),
    /sudo apt-get install -y bubblewrap && npm ci\n\s+- run: sudo env "PATH=\$PATH" npx --no-install zotbox doctor --fix-apparmor/u,
  );
  const install = readFileSync(path.join(REPO_ROOT, 'docs', 'install.md'), 'utf8');
  for (const cause of ['not-installed', 'bubblewrap-too-old', 'userns-disabled', 'apparmor', 'seccomp', 'container', 'kernel-too-old', 'other'])
    t.regex(install, new RegExp(`^\\| \`${cause}\` \\|`, 'mu'), cause);
});
