// `npm run demo`: shows, on the bundled examples, the furthest zotbox goes today.
// Each step is a real zotbox command line run in-process; the demo fails (exit 1)
// if any step does not end as expected, and test/e2e/demo.test.ts runs it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../src/cli.js';

interface DemoStep {
  readonly explain: string;
  readonly argv: readonly string[];
  readonly expectStatus: number;
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const workDir = mkdtempSync(path.join(tmpdir(), 'zotbox-demo-'));
const reviewer = path.join(repoRoot, 'examples', 'code-reviewer');
const maintainer = path.join(repoRoot, 'examples', 'repo-maintainer');
const evals = path.join(repoRoot, 'examples', 'evals');

const STEPS: readonly DemoStep[] = [
  { explain: 'The commands zotbox has, and which ones are available in this build.', argv: ['--help'], expectStatus: 0 },
  { explain: 'Pack an example agent into a canonical .zot; both digests are printed.', argv: ['pack', reviewer, path.join(workDir, 'code-reviewer.zot')], expectStatus: 0 },
  { explain: 'Inspect it: identity, digests, declared permissions and files, without running anything.', argv: ['inspect', path.join(workDir, 'code-reviewer.zot')], expectStatus: 0 },
  { explain: 'The directory and its .zot share the content digest, so either can be pinned in CI.', argv: ['verify', reviewer, '--json'], expectStatus: 0 },
  { explain: 'A wrong pin fails with a stable code and exit status 1.', argv: ['verify', path.join(workDir, 'code-reviewer.zot'), '--expect', `sha256:${'0'.repeat(64)}`], expectStatus: 1 },
  { explain: 'Unpack safely into a new directory (private staging, renamed on success).', argv: ['unpack', path.join(workDir, 'code-reviewer.zot'), path.join(workDir, 'unpacked')], expectStatus: 0 },
  { explain: 'The second example declares an allowlist; inspect shows it as the manifest states it.', argv: ['inspect', maintainer], expectStatus: 0 },
  {
    explain: 'The gate, asked directly: an allowlisted pipeline is parsed into the exact programs that would run.',
    argv: ['check', maintainer, 'bash', 'git status && ls -la', '--cwd', repoRoot],
    expectStatus: 0,
  },
  {
    explain: 'A background job hidden after an allowed command is denied, with the construct named.',
    argv: ['check', maintainer, 'bash', 'git status & rm -rf ~', '--cwd', repoRoot],
    expectStatus: 1,
  },
  { explain: 'The code reviewer may read the workspace, but not escape it.', argv: ['check', reviewer, 'read', '../../etc/passwd', '--cwd', repoRoot], expectStatus: 1 },
  {
    explain: 'The main job: run the code reviewer on a sample project, offline, replaying a recorded model. Every tool call crosses the gate; reading /etc/passwd is denied and the model is told why.',
    argv: ['run', reviewer, '--cwd', path.join(repoRoot, 'examples', 'workspaces', 'sample-project'), '--replay', path.join(repoRoot, 'examples', 'transcripts', 'code-reviewer.json'), '--yes'],
    expectStatus: 0,
  },
  {
    explain: 'Evaluate both agents: every case of examples/evals runs in a fresh copy of its fixture, replaying a transcript, and its expectations are checked (denials, files, text, JS graders).',
    argv: ['eval', path.join(evals, 'code-reviewer.yaml'), path.join(evals, 'repo-maintainer.yaml'), '--reporter', 'list', '--yes'],
    expectStatus: 0,
  },
];

/** How a word would be typed in a shell, for the echoed command lines. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

async function main(): Promise<number> {
  process.stdout.write(`zotbox demo (offline; examples in ${repoRoot}examples)\n`);
  for (const step of STEPS) {
    process.stdout.write(`\n# ${step.explain}\n$ zotbox ${step.argv.map(shellWord).join(' ')}\n`);
    const status = await runCli(step.argv, { cwd: repoRoot, stderr: process.stdout, env: { ...process.env, ZOTBOX_HOME: path.join(workDir, 'state') } });
    if (status !== step.expectStatus) {
      process.stderr.write(`demo step 'zotbox ${step.argv.join(' ')}' exited ${status}, expected ${step.expectStatus}\n`);
      return 1;
    }
  }
  process.stdout.write('\nDemo finished.\n');
  return 0;
}

try {
  process.exitCode = await main();
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
