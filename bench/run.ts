// `npm run bench -- <area>`: runs one benchmark area (or all, with no argument)
// and prints its figures side by side with the baseline measured in the same run.
import { runAgentRunBench } from './agent-run.js';
import { runArchiveBench } from './archive.js';
import { runConfineBench } from './confine.js';
import { runDefaultsBench } from './defaults.js';
import { runEvalBench } from './eval.js';
import { runPolicyBench } from './policy.js';
import { runProcessesBench } from './processes.js';
import { runProvidersBench } from './providers.js';
import { runScaleBench } from './scale.js';
import { runStartBench } from './start.js';

interface BenchArea {
  readonly description: string;
  readonly run: () => Promise<void>;
}

const AREAS: Readonly<Record<string, BenchArea>> = {
  archive: { description: 'image load, unpack, pack and directory digest against zstd and tar', run: runArchiveBench },
  confine: {
    description: 'one bash call confined and unconfined (sandbox, git walks, bubblewrap) against a bare bubblewrap sandbox running the same program, up to 100,000 directories',
    run: runConfineBench,
  },
  defaults: {
    description: '100 runs at once against a loopback model with 300 ms per turn at the default settings, against a hand-tuned modelConcurrency: 100 and the old fixed limit of 8',
    run: runDefaultsBench,
  },
  eval: {
    description: 'a 200-case replay suite in one `zotbox eval` process against one `zotbox run --replay` process per case; the overhead of a JS grader per case',
    run: runEvalBench,
  },
  processes: {
    description: 'a batch of runs on a pool of worker threads against pools of 1 and 2 processes, unconfined and in bubblewrap, against a loopback model with 20 ms per turn',
    run: runProcessesBench,
  },
  providers: { description: 'request bodies built and checked against JSON.stringify; streamed answers decoded against JSON.parse per event', run: runProvidersBench },
  run: { description: 'a replayed agent run through the pool and gate against the same work in-process, one and sixteen at once', run: runAgentRunBench },
  scale: {
    description: '1,000 runs at once on one pool against a loopback model with 1,000 ms per turn, against the floor (a Promise.all loop over the OpenAI SDK) and one `zotbox run` process per agent',
    run: runScaleBench,
  },
  start: { description: 'process start-up of zotbox commands (--help, --version, check, inspect, a replayed run) against node -e 0, and the cost of --no-node-snapshot', run: runStartBench },
  policy: {
    description:
      'path decisions against realpath, shell decisions against parsing and realpath alone, deciding each pipeline at run time against deciding the line once, gate round trips against a raw echo',
    run: runPolicyBench,
  },
};

async function main(argv: readonly string[]): Promise<number> {
  const names = Object.keys(AREAS);
  const [requested, ...extra] = argv;
  if (extra.length > 0 || (requested !== undefined && !Object.hasOwn(AREAS, requested))) {
    process.stderr.write(`usage: npm run bench -- [area]; areas: ${names.join(', ') || '(none yet)'}\n`);
    return 2;
  }
  for (const name of requested === undefined ? names : [requested]) {
    process.stdout.write(`\n== ${name}: ${AREAS[name]!.description}\n`);
    await AREAS[name]!.run();
  }
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
