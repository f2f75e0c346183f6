// Review s43r of issue 21: the project shapes the repros share, built as `npm install` / `python3 -m venv` and
// `pip install -e .` leave them (no network), through the s36i harness.
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { agentWrites, git, project } from '../adversarial-s36i/harness.js';

/** An npm-workspaces monorepo whose `packages/lint` (`@acme/lint`) has the bin `acme-lint`, linked in as npm links it. */
export function monorepo(t: ExecutionContext, files: Readonly<Record<string, string>>): string {
  const ws = project(t, {
    '.gitignore': 'node_modules/\n',
    'package.json': '{"name":"mono","private":true,"workspaces":["packages/*"]}\n',
    'packages/lint/package.json': '{"name":"@acme/lint","version":"1.0.0","bin":{"acme-lint":"bin/lint.js"}}\n',
    'packages/lint/bin/lint.js': '#!/usr/bin/env node\nconsole.log("lint ok");\n',
    'src/app.js': 'console.log(1);\n',
    ...files,
  });
  chmodSync(path.join(ws, 'packages/lint/bin/lint.js'), 0o755);
  mkdirSync(path.join(ws, 'node_modules/@acme'), { recursive: true });
  mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
  symlinkSync('../../packages/lint', path.join(ws, 'node_modules/@acme/lint'));
  symlinkSync('../@acme/lint/bin/lint.js', path.join(ws, 'node_modules/.bin/acme-lint'));
  return ws;
}

/** A package installed in node_modules with one bin (`bin/NAME.js`, `code`), linked into node_modules/.bin as npm does. */
export function installedBin(ws: string, name: string, code: string): void {
  mkdirSync(path.join(ws, 'node_modules', name, 'bin'), { recursive: true });
  writeFileSync(path.join(ws, 'node_modules', name, 'package.json'), JSON.stringify({ name, version: '15.5.2', bin: { [name]: `bin/${name}.js` } }));
  writeFileSync(path.join(ws, 'node_modules', name, 'bin', `${name}.js`), code);
  chmodSync(path.join(ws, 'node_modules', name, 'bin', `${name}.js`), 0o755);
  mkdirSync(path.join(ws, 'node_modules/.bin'), { recursive: true });
  symlinkSync(`../${name}/bin/${name}.js`, path.join(ws, 'node_modules/.bin', name));
}

/**
 * A Python project with a venv (`python3 -m venv --without-pip .venv`) and the project installed editable as
 * setuptools does (`__editable__.mypkg-0.1.pth` naming `<ws>/src`), with pip's console script `.venv/bin/mypkg-lint`.
 */
export function pythonProject(t: ExecutionContext, files: Readonly<Record<string, string>>): string {
  const ws = project(t, {
    '.gitignore': '.venv/\n',
    'pyproject.toml': '[project]\nname = "mypkg"\nversion = "0.1"\n[project.scripts]\nmypkg-lint = "mypkg.lint:main"\n',
    'src/mypkg/__init__.py': '',
    'src/mypkg/lint.py': 'def main():\n    print("lint ok")\n',
    ...files,
  });
  execFileSync('python3', ['-m', 'venv', '--without-pip', path.join(ws, '.venv')]);
  const lib = path.join(ws, '.venv/lib');
  const sitePackages = path.join(lib, readdirSync(lib).find((name) => name.startsWith('python3'))!, 'site-packages');
  writeFileSync(path.join(sitePackages, '__editable__.mypkg-0.1.pth'), `${path.join(ws, 'src')}\n`);
  const script = path.join(ws, '.venv/bin/mypkg-lint');
  writeFileSync(script, `#!${path.join(ws, '.venv/bin/python')}\nimport sys\nfrom mypkg.lint import main\nsys.exit(main())\n`);
  chmodSync(script, 0o755);
  return ws;
}

/**
 * The attack: the write tool writes `payload(marker)` to `target`; then the user stages a change and commits, which
 * runs the hook unconfined. Safe: the write is refused or put back, and the payload never runs.
 */
export async function attack(t: ExecutionContext, ws: string, target: string, payload: (marker: string) => string): Promise<void> {
  const marker = path.join(path.dirname(ws), 'PWNED');
  const before = readFileSync(path.join(ws, target), 'utf8');
  t.log(await agentWrites(t, ws, target, payload(marker)));
  writeFileSync(path.join(ws, 'README.md'), 'user change\n');
  git(ws, 'add', 'README.md');
  try {
    git(ws, 'commit', '-q', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), "the agent-written file ran in the user's pre-commit hook");
  t.is(readFileSync(path.join(ws, target), 'utf8'), before, 'the agent-written file was neither refused nor put back');
}

/**
 * The write tool writes `payload(marker)` to `target` (the monorepo's workspace bin unless named); then the user commits
 * with nothing staged, which runs the pre-commit hook unconfined. Safe: the payload never runs.
 */
export async function commitAfterWrite(t: ExecutionContext, ws: string, target = 'packages/lint/bin/lint.js', payload: (marker: string) => string = nodePayload): Promise<void> {
  const marker = path.join(path.dirname(ws), 'PWNED');
  t.log(await agentWrites(t, ws, target, payload(marker)));
  try {
    git(ws, 'commit', '-q', '--allow-empty', '-m', 'user commit');
  } catch {
    // what the hook ran is what counts
  }
  t.false(existsSync(marker), `the agent-written ${target} ran in the user's pre-commit hook`);
}

/** A node payload that leaves the marker. */
export const nodePayload = (marker: string) => `#!/usr/bin/env node\nrequire("fs").writeFileSync(${JSON.stringify(marker)}, "agent code ran");\n`;
/** A Python module payload that leaves the marker. */
export const pythonPayload = (marker: string) => `open(${JSON.stringify(marker)}, "w").write("agent code ran")\n\ndef main():\n    return 0\n`;

/** An ordinary write (a file no hook names) is accepted: the over-denial check. */
export async function ordinaryWriteAccepted(t: ExecutionContext, ws: string): Promise<void> {
  t.log(await agentWrites(t, ws, 'src/other.js', 'console.log(3);\n'));
  t.true(existsSync(path.join(ws, 'src/other.js')), 'an ordinary write (src/other.js, named by no hook) was refused');
}
