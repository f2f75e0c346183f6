// Finding (s33e): an .envrc (or the .env it loads) that sets an interpreter's option variable puts a project
// directory on that interpreter's library path for every program the user runs there: PERL5OPT="-Itools -MLint"
// makes every perl load tools/Lint.pm, NODE_OPTIONS="-r ./tools/setup" makes every node run tools/setup.js. The
// reader takes such a value as path-like pieces (valuePaths: a word with a "/", not starting with "-"), so
// "-Itools" names nothing, and "./tools/setup" is protected as spelled, not as node resolves it (setup.js). Class:
// option-carrying variables (PERL5OPT, RUBYOPT, NODE_OPTIONS, ...) read by the interpreter's option grammar
// (interpreter-operands.ts), or refused as unresolved; they are neither search variables nor data.
import test from 'ava';
import { agentWrites, direnvAllow, PAYLOAD, project, userRunUnderDirenvRunsAgentCode } from './harness.js';

test('PERL5OPT="-Itools -MLint" in .envrc gets tools/Lint.pm refused to the write tool', (t) => {
  const ws = project(t, { '.envrc': 'export PERL5OPT="-Itools -MLint"\n', 'tools/README.md': 'tools\n' });
  direnvAllow(ws);
  const run = agentWrites(ws, 'tools/Lint.pm', PAYLOAD.pl.replace('package Evil', 'package Lint'));
  t.false(userRunUnderDirenvRunsAgentCode(ws, ['perl', '-e', '1']), `the user's perl, under direnv, ran the agent's tools/Lint.pm\n${run.output}`);
});

test('NODE_OPTIONS="-r ./tools/setup" in .envrc gets tools/setup.js refused to the write tool', (t) => {
  const ws = project(t, { '.envrc': 'export NODE_OPTIONS="-r ./tools/setup"\n', 'tools/README.md': 'tools\n' });
  direnvAllow(ws);
  const run = agentWrites(ws, 'tools/setup.js', PAYLOAD.js);
  t.false(userRunUnderDirenvRunsAgentCode(ws, ['node', '-e', '0']), `the user's node, under direnv, ran the agent's tools/setup.js\n${run.output}`);
});
