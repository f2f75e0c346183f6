// Finding (s33e): the words reader applies an interpreter's grammar one line at a time (grammarNames), but a VS Code
// task in its usual formatting spells the command and its arguments on separate lines ("command": "python3", then
// "args": ["-m", "tools.lint"]): tools/lint.py is not protected, and a folderOpen task runs it when the user opens the
// folder. (VS Code is not installed here: the safe outcome asserted is the write tool's refusal.) Class: settings read
// structurally where the format is known (a task's command + args, a devcontainer's postCreateCommand array, an MCP
// server's command + args) and the grammar applied to that whole command, not to a line.
import { existsSync } from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { agentWrites, PAYLOAD, project } from './harness.js';

const TASKS = `{
  "version": "2.0.0",
  "tasks": [
    {
      "label": "lint on open",
      "type": "process",
      "command": "python3",
      "args": ["-m", "tools.lint"],
      "runOptions": { "runOn": "folderOpen" }
    }
  ]
}
`;

test('a folderOpen task running python3 with args ["-m", "tools.lint"] gets tools/lint.py refused to the write tool', (t) => {
  const ws = project(t, { '.vscode/tasks.json': TASKS, 'tools/README.md': 'tools\n' });
  const run = agentWrites(ws, 'tools/lint.py', PAYLOAD.py);
  t.false(existsSync(path.join(ws, 'tools/lint.py')), `the agent wrote tools/lint.py, which the folderOpen task runs\n${run.output}`);
});
