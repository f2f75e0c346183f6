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
    const { root, refusal } = workspaceRefusal(t, { [file]: text }, 'tools/run.sh');
    // Premise: the command the tool reads out of the JSON runs tools/run.sh under a real shell (as VS Code's shell
    // task and Claude Code's command hook do).
    fs.mkdirSync(path.join(root, 'tools'), { recursive: true });
    fs.writeFileSync(path.join(root, 'tools/run.sh'), 'touch RAN\n');
    execFileSync('sh', ['-c', (command as (s: unknown) => string)(JSON.parse(text))], { cwd: root });
    t.true(fs.existsSync(path.join(root, 'RAN')), 'premise: the command runs tools/run.sh');
    t.regex(refusal ?? 'allowed', /write denied/u);
  });
}

// The same class: any JSON string escape in the name (\u0065 for "e", \/ for "/"), and YAML/TOML escaped quotes.
const escaped: readonly (readonly [string, string])[] = [
  ['.vscode/tasks.json', String.raw`{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"sh tools/run\u002esh"}]}`],
  ['.vscode/tasks.json', String.raw`{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"sh tools\/run.sh"}]}`],
  ['.pre-commit-config.yaml', String.raw`repos: [{repo: local, hooks: [{id: x, name: x, language: system, entry: "sh \"tools/run.sh\""}]}]` + '\n'],
  ['.vscode/tasks.json', String.raw`{"version":"2.0.0","tasks":[{"label":"x","type":"shell","command":"sh tools/run\\ now.sh"}]}`],
  ['.idea/runConfigurations/x.xml', '<component><configuration name="x" type="ShConfigurationType"><option name="SCRIPT_PATH" value="$PROJECT_DIR$/tools&#47;run.sh" /></configuration></component>\n'],
  ['.mise.toml', `[tasks.setup]\nrun = ${String.raw`"sh \"tools/run.sh\""`}\n`],
];
for (const [file, text] of escaped) {
  test(`${file} naming tools/run.sh through an escape (${text.slice(0, 90)}): the agent may not write it`, (t) => {
    const target = text.includes('now.sh') ? 'tools/run now.sh' : 'tools/run.sh';
    if (file.endsWith('.json') && target === 'tools/run.sh') t.regex((JSON.parse(text) as { tasks: { command: string }[] }).tasks[0]!.command, /^sh tools\/run\.sh$/u);
    t.regex(workspaceRefusal(t, { [file]: text }, target).refusal ?? 'allowed', /write denied/u);
  });
}
