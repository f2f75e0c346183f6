// The thread that matches a suite's patterns (text_matches, a call matcher's
// command regex and path glob) for pattern-host.ts, so that a pattern that
// backtracks for ever spins here, where the host can terminate it, never on the
// eval's main thread (issue 22 §4). It says when it starts each request, so the
// host's time bound counts only the matching, not the wait in line.
import { parentPort } from 'node:worker_threads';
import { globMatches } from './call-match.js';
import type { PatternAnswer, PatternJob } from './pattern-host.js';

/** Compiled patterns by source; a suite names few, and the cache is cleared when it fills. */
const MAX_CACHED = 1000;
const compiled = new Map<string, RegExp>();

function regexOf(source: string): RegExp {
  let regex = compiled.get(source);
  if (regex === undefined) {
    if (compiled.size >= MAX_CACHED) compiled.clear();
    regex = new RegExp(source, 'u');
    compiled.set(source, regex);
  }
  return regex;
}

function matches(job: PatternJob): boolean {
  if (job.kind === 'glob') return job.subjects.some((subject) => globMatches(job.source, subject));
  const regex = regexOf(job.source);
  return job.subjects.some((subject) => regex.test(subject));
}

const port = parentPort;
port?.on('message', (job: PatternJob) => {
  port.postMessage({ id: job.id, started: true } satisfies PatternAnswer);
  try {
    port.postMessage({ id: job.id, matched: matches(job) } satisfies PatternAnswer);
  } catch (thrown) {
    // A pattern that overflows the regex engine's stack, say: the verdict fails with why.
    port.postMessage({ id: job.id, error: thrown instanceof Error ? thrown.message : String(thrown) } satisfies PatternAnswer);
  }
});
