// Finding (s33e): the script reader applies an interpreter's grammar (python -m MOD runs MOD.py) only when the
// interpreter is the command's program, past a closed list of wrappers (env, exec, command, nohup, xargs, time...).
// Any other program that runs the rest of its words as a command hides it: `nice python3 -m tools.lint`,
// `timeout 60 python3 -m tools.lint`, `uv run python -m ...`, `poetry run python -m ...` protect only the words
// (a file named "tools.lint"), not tools/lint.py. Class: wrappers outside BEFORE_PROGRAM; closed world would read
// an interpreter's grammar at every word of a command (as grammarNames does for settings files), or refuse.
import test from 'ava';
import { agentRuns, agentWrites, PAYLOAD, projectWithHook, userCommitRunsAgentCode } from './harness.js';

for (const wrapper of ['nice', 'timeout 60']) {
  test(`a hook running \`${wrapper} python3 -m tools.lint\` gets tools/lint.py refused to the write tool`, (t) => {
    const ws = projectWithHook(t, `#!/bin/sh\n${wrapper} python3 -m tools.lint\n`, { 'tools/README.md': 'tools\n' });
    const run = agentWrites(ws, 'tools/lint.py', PAYLOAD.py);
    t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's tools/lint.py\n${run.output}`);
  });
}

test('the same hook and a confined bash command writing tools/lint.py: the file is put back or the run stops', (t) => {
  const ws = projectWithHook(t, '#!/bin/sh\nnice python3 -m tools.lint\n', { 'tools/README.md': 'tools\n' });
  const run = agentRuns(ws, `printf '%s' "${PAYLOAD.py.trim()}" > tools/lint.py`);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran tools/lint.py written by the agent's confined bash\n${run.output}`);
});
