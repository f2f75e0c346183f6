// `zotbox eval SUITE…` and `zotbox eval merge REPORT…`: reads the options, runs
// the eval (or merges shard reports), and hands the report to its reporters. Exit
// 0 when every case passed, 1 when one failed or did not run, 3 when none failed
// but one is an infrastructure error (report status error), 128 + the signal's
// number when SIGINT, SIGTERM or SIGHUP stopped it (130, 143, 129), 2 for a usage, suite or
// report error (thrown, nothing ran).
import { mergeEvalReports, readEvalReport, runEval, casesToRerun, parseShard, shardFromEnvironment, type EvalReport } from '../api/eval.js';
import path from 'node:path';
import { parseConfineMode } from '../api/confinement.js';
import { ZotboxError } from '../errors.js';
import type { CliIo, CommandHandler, ParsedCommand } from './command-spec.js';
import { parseReporters } from './eval-reporters.js';
import { EvalTerminalReporter, writeFileReporters } from './eval-output.js';
import { signalExitStatus } from './launch.js';
import { programPathOf } from './program-path-option.js';

export const runEvalCommand: CommandHandler = async (parsed, io) => {
  if (parsed.positionals[0] === 'merge') return runMerge(parsed, io);
  const values = parsed.values;
  const reporters = parseReporters(values['reporter'] as string[] | undefined, io.cwd, io.env);
  const shardText = typeof values['shard'] === 'string' ? values['shard'] : undefined;
  const shard = shardText !== undefined ? parseShard(shardText, '--shard') : (shardFromEnvironment(io.env) ?? undefined);
  const lastFailed = typeof values['last-failed'] === 'string' ? casesToRerun(readEvalReport(path.resolve(io.cwd, values['last-failed']))) : undefined;
  const confineWord = values['confine'];
  const confine = typeof confineWord === 'string' ? parseConfineMode(confineWord) : undefined;
  if (confineWord !== undefined && confine === undefined) throw new ZotboxError('ZB_CLI_USAGE', `--confine takes required (the default) or off, got ${JSON.stringify(confineWord)}.`);
  const grep = typeof values['grep'] === 'string' ? checkedPattern(values['grep']) : undefined;
  if (values['remember'] === true && values['yes'] !== true && io.env['ZOTBOX_AGENT_CONSENT'] !== '1') {
    throw new ZotboxError('ZB_CLI_USAGE', '--remember saves the consent that -y gives: add -y (or set ZOTBOX_AGENT_CONSENT=1). An answer at the consent prompt is saved without --remember.');
  }
  const terminal = new EvalTerminalReporter(io.stdout, reporters, io.stderr, values['keep-workspaces'] === true);
  let removeTemp: (() => Promise<void>) | undefined;
  const report = await runEval({
    suiteFiles: parsed.positionals,
    cwd: io.cwd,
    env: io.env,
    ...numberOptions(values),
    ...(grep === undefined ? {} : { grep }),
    failFast: values['fail-fast'] === true,
    ...(shard === undefined ? {} : { shard }),
    ...(lastFailed === undefined ? {} : { only: lastFailed }),
    keepWorkspaces: values['keep-workspaces'] === true,
    ...(typeof values['model'] === 'string' ? { model: values['model'] } : {}),
    ...(confine === undefined ? {} : { confine }),
    ...(programPathOf(values, io.cwd) === undefined ? {} : { programPath: programPathOf(values, io.cwd)! }),
    yes: values['yes'] === true,
    remember: values['remember'] === true,
    ...(values['allow-scope'] === undefined ? {} : { allowScopes: values['allow-scope'] as string[] }),
    stdin: io.stdin,
    stdout: io.stdout,
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    onProgress: (progress) => terminal.progress(progress),
    removeAfterReport: (remove) => (removeTemp = remove),
  });
  const status = finish(report, reporters, terminal, io);
  if (removeTemp !== undefined) {
    // Interrupted: the reports are written; a second signal leaves at once, with the temp folder named.
    io.stderr.write('zotbox eval: interrupted; the reports are written, now removing the case workspaces (a second Ctrl-C leaves them)\n');
    await removeTemp();
  }
  return status;
};

async function runMerge(parsed: ParsedCommand, io: CliIo): Promise<number> {
  const files = parsed.positionals.slice(1);
  if (files.length === 0) throw new ZotboxError('ZB_CLI_USAGE', 'zotbox eval merge needs the JSON reports to merge: zotbox eval merge out/shard-*.json --reporter junit=out/junit.xml.');
  const reporters = parseReporters(parsed.values['reporter'] as string[] | undefined, io.cwd, io.env);
  const report = mergeEvalReports(
    files.map((file) => readEvalReport(path.resolve(io.cwd, file))),
    files,
  );
  return finish(report, reporters, new EvalTerminalReporter(io.stdout, reporters), io);
}

function finish(report: EvalReport, reporters: ReturnType<typeof parseReporters>, terminal: EvalTerminalReporter, io: CliIo): number {
  terminal.end(report);
  writeFileReporters(report, reporters, io);
  // Stopped by a signal: end the way a shell expects of it, once the workspaces are gone and the reports written.
  const stopped = report.status === 'interrupted' ? signalExitStatus(io.signal) : undefined;
  return stopped ?? EXIT_BY_STATUS[report.status];
}

/** Exit statuses by report status (docs/eval.md): an infrastructure error is told apart from an agent that failed. */
const EXIT_BY_STATUS = { passed: 0, failed: 1, error: 3, interrupted: 1 } as const;

function numberOptions(values: ParsedCommand['values']): {
  maxRuns?: number;
  processes?: number;
  modelConcurrency?: number;
  repeat?: number;
  retries?: number;
  maxCostUsd?: number;
  maxTokens?: number;
  maxInfraErrors?: number;
} {
  const maxRuns = wholeNumber(values['max-runs'], 'max-runs', 1);
  const processes = wholeNumber(values['processes'], 'processes', 1);
  const modelConcurrency = wholeNumber(values['model-concurrency'], 'model-concurrency', 1);
  const maxInfraErrors = wholeNumber(values['max-infra-errors'], 'max-infra-errors', 0);
  const repeat = wholeNumber(values['repeat'], 'repeat', 1);
  const retries = wholeNumber(values['retries'], 'retries', 0);
  const maxTokens = wholeNumber(values['max-tokens'], 'max-tokens', 1);
  const costText = values['max-cost'];
  let maxCostUsd: number | undefined;
  if (typeof costText === 'string') {
    maxCostUsd = /^\d+(\.\d+)?$/.test(costText) ? Number(costText) : Number.NaN;
    if (!(maxCostUsd > 0)) throw new ZotboxError('ZB_CLI_USAGE', `--max-cost takes an amount in US dollars above 0, such as 2.50; got ${JSON.stringify(costText)}.`);
  }
  return {
    ...(maxRuns === undefined ? {} : { maxRuns }),
    ...(processes === undefined ? {} : { processes }),
    ...(modelConcurrency === undefined ? {} : { modelConcurrency }),
    ...(repeat === undefined ? {} : { repeat }),
    ...(retries === undefined ? {} : { retries }),
    ...(maxTokens === undefined ? {} : { maxTokens }),
    ...(maxCostUsd === undefined ? {} : { maxCostUsd }),
    ...(maxInfraErrors === undefined ? {} : { maxInfraErrors }),
  };
}

function wholeNumber(value: unknown, option: string, minimum: number): number | undefined {
  if (value === undefined) return undefined;
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= minimum)) throw new ZotboxError('ZB_CLI_USAGE', `--${option} takes a whole number of at least ${minimum}, got ${JSON.stringify(value)}.`);
  return n;
}

function checkedPattern(source: string): string {
  try {
    new RegExp(source, 'u');
    return source;
  } catch (cause) {
    throw new ZotboxError('ZB_CLI_USAGE', `--grep takes a regular expression (JavaScript syntax): ${(cause as Error).message}.`, { cause });
  }
}
