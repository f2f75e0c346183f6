// `zotbox eval --last-failed FILE`: which cases a previous report says to run
// again. Pure: takes a report already read (readEvalReport), returns case keys.
import type { EvalReport } from '../eval-report.js';
import { caseKey } from './shard.js';

/** The keys (`<suite>/<case id>`) of every case that failed or did not run. */
export function casesToRerun(report: EvalReport): Set<string> {
  return new Set(report.cases.filter((result) => result.status === 'failed' || result.status === 'not_run').map((result) => caseKey(result.suite, result.id)));
}
