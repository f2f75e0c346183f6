// Finding (s33e): a program handed to an interpreter on standard input, as a here-document (`python3 - <<'EOF'`,
// `node <<EOF`), is read as shell words, not by the interpreter's grammar: `import tools.lint` protects a file named
// "tools.lint", not tools/lint.py, which python imports from the directory the hook runs in (sys.path[0] is '' for
// a program on stdin). `python3 -c "import tools.lint"` is read (importedModules); the same text on stdin is not.
// Class: an interpreter's program text from a here-document (or a here-string) read as its -c/-e text is.
import test from 'ava';
import { agentWrites, PAYLOAD, projectWithHook, userCommitRunsAgentCode } from './harness.js';

test('a hook running python3 with `import tools.lint` in a here-document gets tools/lint.py refused to the write tool', (t) => {
  const ws = projectWithHook(t, "#!/bin/sh\npython3 - <<'EOF'\nimport tools.lint\nEOF\n", { 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/lint.py', PAYLOAD.py);
  t.false(userCommitRunsAgentCode(ws), `the user's git commit ran the agent's tools/lint.py\n${run.output}`);
});
