// A pipeline's commands run at the same time after one decision for all of them
// (issue 10 item 3): commands that create, move, link or remove names are denied
// in a pipeline, so one cannot redirect what another was approved for; commands
// that only fill files they name are allowed. Expectations written by hand.
import test from 'ava';
import { checkCases, type GateCase } from './gate-cases.js';

const ARGUMENT = 'ZB_POLICY_SHELL_ARGUMENT';

const CASES: readonly GateCase[] = [
  { command: 'git log --oneline | tee log.txt', expect: 'allow', why: 'tee only fills the file it names' },
  { command: 'cat a.txt | tee -a notes.md | wc -l', expect: 'allow' },
  { command: 'echo x | touch t.txt', expect: 'allow' },
  { command: 'echo x | truncate -s 0 b-new.txt', expect: 'allow' },
  { command: 'echo x | chmod a-w a.txt', expect: 'allow' },
  { command: 'echo x | tar -cf out.tar a.txt', expect: 'allow' },
  { command: 'echo x | zip out.zip a.txt', expect: 'allow' },
  { command: 'echo x | wget -q -O page.html https://example.com/', expect: 'allow' },
  { command: 'tar -tf x.tar | grep a', expect: 'allow', why: 'listing writes nothing' },
  { command: 'cat a.txt | cp a.txt c.txt', expect: ARGUMENT, why: 'cp creates names' },
  { command: 'mv a/b/v a/v | cat payload | tee a/v', expect: ARGUMENT, why: 'mv moves a link under a name tee was approved for' },
  { command: 'mv a.txt c.txt | tail -n 1 c.txt', expect: ARGUMENT },
  { command: 'tail -n 1 c.txt | ln -s a.txt c.txt', expect: ARGUMENT },
  { command: 'echo x | rm a.txt', expect: ARGUMENT },
  { command: 'echo x | mkdir d2', expect: ARGUMENT },
  { command: 'echo x | git restore app.txt', expect: ARGUMENT, why: 'git rewrites the worktree (and can create links)' },
  { command: 'git status | timeout 5 mv a.txt c.txt', expect: ARGUMENT, why: 'what a wrapper runs counts too' },
  { command: 'mv a.txt c.txt && tail -n 1 c.txt', expect: 'allow', why: 'not a pipeline: each command is decided when it starts' },
  { command: 'mv a.txt c.txt', expect: 'allow' },
];

test('commands that change names are denied in pipelines; those that only fill files are not', (t) => {
  checkCases(t, CASES);
});
