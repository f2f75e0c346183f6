// Finding (#! lines): `#!/usr/bin/env -S LC_ALL=C bash` runs bash (env -S splits the line; LC_ALL=C is an assignment,
// bash the program). readingOf takes env's first word that is no option (`LC_ALL=C`) as the program, so the hook is read
// as plain words, not by the shell's grammar: its loop over tools/checks/*.sh covers nothing. The agent's write tool
// adds tools/checks/aaa.sh and the user's next `git commit` runs it unconfined.
// Safe outcome: the write is refused (the hook read as the bash script it is; `for f in tools/checks/*.sh` covers tools/checks/).
import test from 'ava';
import { agentRun, ran, userCommits, world } from './harness.js';

const body = 'for f in tools/checks/*.sh; do\n  sh "$f" || exit 1\ndone\n';

for (const shebang of ['#!/usr/bin/env -S LC_ALL=C bash', '#!/usr/bin/env -S bash']) {
  test(`a hook whose #! line is ${shebang} is read as a shell script${shebang.includes('LC_ALL') ? '' : ' (control, passes now)'}`, async (t) => {
    const w = world(t, { '.git/hooks/pre-commit': `${shebang}\n${body}`, 'tools/checks/lint.sh': 'echo lint\n' }, ['.git/hooks/pre-commit']);
    const result = await agentRun(w, [{ name: 'write', input: { path: 'tools/checks/aaa.sh', content: `touch '${w.marker}'\n` } }]);
    userCommits(w);
    t.false(ran(w), `the agent's tools/checks/aaa.sh ran on the user's commit; agent output:\n${result.stdout}${result.stderr}`);
  });
}
