// Settings files are read word by word on their raw text: a JSON-escaped quote (\") leaves its backslash glued to
// the word (`tools/run.py\`), which is then no plain word, so a task's `"command": "python3 \"tools/run.py\""` (VS Code
// runs it on folder open) or a Claude Code SessionStart hook `"bash \"tools/start.sh\""` protects nothing.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { workspaceRefusal } from './hook-harness.js';

const cases = [
  {
    file: '.vscode/tasks.json',
    settings: { version: '2.0.0', tasks: [{ label: 'setup', type: 'shell', command: 'sh "tools/run.sh"', runOptions: { runOn: 'folderOpen' } }] },
    command: (s: { tasks: { command: string }[] }) => s.tasks[0]!.command,
  },
  {
    file: '.claude/settings.json',
    settings: { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'sh "tools/run.sh"' }] }] } },
    command: (s: { hooks: { SessionStart: { hooks: { command: string }[] }[] } }) => s.hooks.SessionStart[0]!.hooks[0]!.command,
  },
] as const;

for (const { file, settings, command } of cases) {
  test(`${file} whose command quotes its script (JSON \\"): the agent may not write the script`, (t) => {
    const text = JSON.stringify(settings, null, 2);
    t.true(text.includes('\\"tools/run.sh\\"'), 'the file holds the escaped quotes JSON writes');
    const { root, refusal } = workspaceRefusal({ [file]: text }, 'tools/run.sh');
    // Premise: the command the tool reads out of the JSON runs tools/run.sh under a real shell (as VS Code's shell
    // task and Claude Code's command hook do).
    fs.mkdirSync(path.join(root, 'tools'), { recursive: true });
    fs.writeFileSync(path.join(root, 'tools/run.sh'), 'touch RAN\n');
    execFileSync('sh', ['-c', (command as (s: unknown) => string)(JSON.parse(text))], { cwd: root });
    t.true(fs.existsSync(path.join(root, 'RAN')), 'premise: the command runs tools/run.sh');
    t.regex(refusal ?? 'allowed', /write denied/u);
  });
}
