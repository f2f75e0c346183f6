// Where an eval's report goes. On standard output: `list` (on a terminal, a live
// progress line redrawn by log-update, then the final table; off one, a line per
// finished case, then the table) or `line` (a line per case and the totals).
// Files: json, junit, markdown, html, each written whole or not at all. `github`:
// ::error annotations on standard output and the step summary.
import { WriteStream } from 'node:tty';
import { createLogUpdate } from 'log-update';
import {
  appendStepSummary,
  formatHtmlReport,
  formatJsonReport,
  formatJunit,
  formatMarkdownSummary,
  githubAnnotations,
  runCostParts,
  writeReportFiles,
  type EvalProgress,
  type EvalReport,
} from '../api/eval.js';
import type { CliIo } from './command-spec.js';
import { caseLine, finalTable, progressLine, totalsLine } from './eval-text.js';
import type { ReporterSpec } from './eval-reporters.js';
import { field, writeTerminalText, type TextStream } from './terminal-output.js';

export class EvalTerminalReporter {
  private readonly mode: 'list' | 'line' | undefined;
  private readonly live: ReturnType<typeof createLogUpdate> | undefined;
  private ticker: NodeJS.Timeout | undefined;
  private started = 0;
  private counts = { done: 0, total: 0, passed: 0, failed: 0, errors: 0, costs: [] as readonly (number | null)[] };
  /** The cases a line was written for as they ended; the line reporter writes the others at the end (a merge, cases not run). */
  private readonly shown = new Set<string>();

  constructor(
    private readonly stdout: TextStream,
    reporters: readonly ReporterSpec[],
    private readonly stderr?: TextStream,
    private readonly keepWorkspaces = false,
  ) {
    this.mode = reporters.find((spec) => spec.kind === 'list' || spec.kind === 'line')?.kind as 'list' | 'line' | undefined;
    // log-update redraws on a real terminal stream only; anything else gets plain lines.
    this.live = this.mode === 'list' && stdout instanceof WriteStream ? createLogUpdate(stdout) : undefined;
  }

  progress(progress: EvalProgress): void {
    if (progress.type === 'warning') {
      if (this.stderr !== undefined) writeTerminalText(this.stderr, `zotbox: warning: ${progress.message}\n`);
      return;
    }
    if (progress.type === 'queued') {
      if (this.stderr !== undefined)
        writeTerminalText(
          this.stderr,
          `zotbox: runs wait for model slots on ${progress.endpoint} (${progress.ahead} requests ahead, ${progress.limit} at once: --model-concurrency, max_concurrency)\n`,
        );
      return;
    }
    if (progress.type === 'eval.stopping') {
      this.live?.clear();
      writeTerminalText(
        this.stderr ?? this.stdout,
        `zotbox: eval: stopping: ${field(progress.reason)}. Fix: check the model server (zotbox doctor checks the sandbox), then rerun with --last-failed.\n`,
      );
      return;
    }
    if (progress.type === 'eval.start' && this.keepWorkspaces && this.stderr !== undefined) writeTerminalText(this.stderr, `zotbox: keeping every case workspace in ${progress.workspaces}\n`);
    if (this.mode === undefined) return;
    if (progress.type === 'eval.start') {
      this.started = performance.now();
      this.counts = { ...this.counts, total: progress.cases };
      if (this.live !== undefined) {
        // The elapsed time moves even while no case ends; unref'd, it never keeps the process alive.
        this.ticker = setInterval(() => this.redraw(), 1000);
        this.ticker.unref();
        this.redraw();
      }
    } else if (progress.type === 'case.end') {
      const { result } = progress;
      this.counts = {
        ...this.counts,
        done: this.counts.done + 1,
        passed: this.counts.passed + (result.status === 'passed' ? 1 : 0),
        failed: this.counts.failed + (result.status === 'failed' ? 1 : 0),
        errors: this.counts.errors + (result.status === 'error' ? 1 : 0),
        costs: [...this.counts.costs, ...result.runs.flatMap(runCostParts)],
      };
      this.shown.add(`${result.suite}/${result.id}`);
      if (this.live !== undefined) {
        this.live.clear();
        writeTerminalText(this.stdout, caseLine(result));
        this.redraw();
      } else {
        writeTerminalText(this.stdout, caseLine(result));
      }
    }
  }

  /** The end of the eval: the live line gone, then the table (list) or the totals (line). */
  end(report: EvalReport): void {
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.live?.clear();
    this.live?.done();
    if (this.mode === 'list') writeTerminalText(this.stdout, `\n${finalTable(report)}`);
    else if (this.mode === 'line') {
      // Every case gets its line: those that never ended here (merged from shards, not run) before the totals.
      for (const result of report.cases) if (!this.shown.has(`${result.suite}/${result.id}`)) writeTerminalText(this.stdout, caseLine(result));
      writeTerminalText(this.stdout, `${totalsLine(report)}\n`);
    }
  }

  private redraw(): void {
    this.live?.(progressLine({ ...this.counts, elapsedMs: performance.now() - this.started }));
  }
}

/**
 * The file reporters and GitHub's, from the one report: every output is rendered first, then the
 * files are written all or none (writeReportFiles), and only then do the annotations and the step
 * summary go out. A reporter that cannot render or a file that cannot be written fails the command
 * with nothing written, so no reporter can say "passed" beside one that failed.
 */
export function writeFileReporters(report: EvalReport, reporters: readonly ReporterSpec[], io: CliIo): void {
  const files: { file: string; text: string }[] = [];
  let annotations: string[] = [];
  for (const spec of reporters) {
    if (spec.kind === 'json') files.push({ file: spec.file, text: formatJsonReport(report) });
    else if (spec.kind === 'junit') files.push({ file: spec.file, text: formatJunit(report) });
    else if (spec.kind === 'markdown') files.push({ file: spec.file, text: formatMarkdownSummary(report) });
    else if (spec.kind === 'html') files.push({ file: spec.file, text: formatHtmlReport(report) });
    else if (spec.kind === 'github') annotations = githubAnnotations(report);
  }
  writeReportFiles(files);
  if (!reporters.some((spec) => spec.kind === 'github')) return;
  for (const line of annotations) writeTerminalText(io.stdout, `${line}\n`);
  appendStepSummary(report, io.env);
}
