// `npm run demo`: shows, on the bundled examples, the furthest zotbox goes today.
// Each step is a real zotbox command line run in-process; the demo fails (exit 1)
// if any step does not end as expected, and test/e2e/demo.test.ts runs it.
import { fileURLToPath } from 'node:url';
import { runCli } from '../src/cli.js';

interface DemoStep {
  readonly explain: string;
  readonly argv: readonly string[];
  readonly expectStatus: number;
}

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const STEPS: readonly DemoStep[] = [
  { explain: 'The commands zotbox has, and which ones are available in this build.', argv: ['--help'], expectStatus: 0 },
  { explain: 'Every command documents itself; here is how an agent is packed.', argv: ['pack', '--help'], expectStatus: 0 },
  { explain: 'Errors carry a stable code and say how to fix them; usage errors exit 2.', argv: ['unpack', 'only-one-argument.zot'], expectStatus: 2 },
];

async function main(): Promise<number> {
  process.stdout.write(`zotbox demo (offline; examples in ${repoRoot}examples)\n`);
  for (const step of STEPS) {
    process.stdout.write(`\n# ${step.explain}\n$ zotbox ${step.argv.join(' ')}\n`);
    const status = await runCli(step.argv, { cwd: repoRoot, stderr: process.stdout });
    if (status !== step.expectStatus) {
      process.stderr.write(`demo step 'zotbox ${step.argv.join(' ')}' exited ${status}, expected ${step.expectStatus}\n`);
      return 1;
    }
  }
  process.stdout.write('\nDemo finished.\n');
  return 0;
}

process.exitCode = await main();
