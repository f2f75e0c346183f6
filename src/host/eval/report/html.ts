// The HTML reporter (issue 27 §4): one self-contained page for a run or a merge,
// rendered from the JSON report only. Every string from the report (agent text,
// model text, reasons, names) goes through escapeHtml; the page loads nothing
// (a CSP meta allows no source but its own inline style and its one script, by
// hash), so agent text can neither run script nor reach the network.
import { createHash } from 'node:crypto';
import type { CaseResult, CaseRun, EvalReport, ReportedFile } from '../eval-report.js';
import { formatCost } from '../../models/format-cost.js';
import { computeTotals, formatCasesCost } from './totals.js';

const HTML_ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML element body or a quoted attribute: & < > " ' escaped, so no text ends an element or an attribute. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ENTITIES[char]!);
}

const h = escapeHtml;

/** Filters the table by text and status; reads only the DOM's own data attributes. */
const FILTER_SCRIPT = `
const text = document.getElementById('filter-text');
const status = document.getElementById('filter-status');
function apply() {
  const words = text.value.toLowerCase();
  let shown = 0;
  for (const row of document.querySelectorAll('tr.case')) {
    const visible = row.dataset.key.toLowerCase().includes(words) && (status.value === '' || row.dataset.status === status.value);
    row.hidden = !visible;
    const details = document.getElementById(row.dataset.details);
    if (details) details.hidden = !visible;
    if (visible) shown++;
  }
  document.getElementById('shown').textContent = String(shown);
}
text.addEventListener('input', apply);
status.addEventListener('change', apply);
`;

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 1.5rem; color: #1d1d1f; }
h1 { font-size: 1.4rem; } .passed { color: #137333; } .failed { color: #c5221f; } .error { color: #b06000; } .not_run, .interrupted { color: #5f6368; }
.totals span { margin-right: 1.2rem; } table { border-collapse: collapse; width: 100%; margin: 1rem 0; }
th, td { text-align: left; padding: .3rem .6rem; border-bottom: 1px solid #ddd; vertical-align: top; }
details.case { border: 1px solid #ddd; border-radius: 6px; margin: .6rem 0; padding: .4rem .8rem; }
summary { cursor: pointer; font-weight: 600; } pre { background: #f6f8fa; padding: .6rem; white-space: pre-wrap; word-break: break-word; max-height: 30rem; overflow: auto; }
.denied { background: #fce8e6; color: #a50e0e; } .diff-add { background: #e6f4ea; color: #137333; } .diff-del { background: #fce8e6; color: #a50e0e; } .diff-hunk { color: #5f6368; } .verdict-fail { color: #c5221f; } .verdict-pass { color: #137333; }
.infra { background: #fef7e0; border-left: 4px solid #f9ab00; padding: .4rem .6rem; }
`;

/** The report as one HTML page: totals, a filterable table of cases, and each case's runs, expandable. */
export function formatHtmlReport(report: EvalReport): string {
  const totals = computeTotals(report.cases);
  const scriptHash = createHash('sha256').update(FILTER_SCRIPT).digest('base64');
  const csp = `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${scriptHash}'; img-src 'none'; connect-src 'none'; form-action 'none'; base-uri 'none'`;
  const rows = report.cases.map((result, i) => caseRow(result, i)).join('\n');
  const details = report.cases.map((result, i) => caseDetails(result, i, report.options.repeat)).join('\n');
  const statuses = ['passed', 'failed', 'error', 'not_run'].map((status) => `<option value="${status}">${status.replace('_', ' ')}</option>`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${h(csp)}">
<meta name="referrer" content="no-referrer">
<title>zotbox eval ${h(report.status)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>zotbox eval: <span class="${h(report.status)}" id="status">${h(report.status)}</span></h1>
<p class="totals" id="totals"><span><b id="total-cases">${totals.cases}</b> cases</span><span class="passed"><b id="total-passed">${totals.passed}</b> passed</span><span class="failed"><b id="total-failed">${totals.failed}</b> failed</span><span class="error"><b id="total-errors">${totals.errors}</b> errors (infrastructure)</span><span class="not_run"><b id="total-not-run">${totals.not_run}</b> not run</span><span>${totals.runs} runs</span><span>${count(allTokens(totals.usage))} tokens</span><span>${h(formatCasesCost(report.cases))}</span><span>${(report.duration_ms / 1000).toFixed(1)} s</span></p>
<p>zotbox ${h(report.zotbox_version)} · started ${h(report.started_at)}${report.shard === null ? '' : ` · shard ${report.shard.index}/${report.shard.total}`} · ${report.suites.map((suite) => `${h(suite.name)} (${h(suite.file)}, ${h(`${suite.agent.name}@${suite.agent.version}`)}, model ${h(suite.model)})`).join(' · ')}</p>
<p><label>Filter <input id="filter-text" type="search" placeholder="suite/id"></label> <label>Result <select id="filter-status"><option value="">all</option>${statuses}</select></label> · <span id="shown">${report.cases.length}</span> shown</p>
<table id="cases">
<thead><tr><th>Case</th><th>Result</th><th>Runs passed</th><th>Turns</th><th>Tokens</th><th>Cost</th><th>Why</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
${details}
<script>${FILTER_SCRIPT}</script>
</body>
</html>
`;
}

function caseRow(result: CaseResult, i: number): string {
  const key = `${result.suite}/${result.id}`;
  const passed = result.runs.filter((run) => run.passed).length;
  const turns = result.runs.reduce((sum, run) => sum + run.turns, 0);
  const tokens = result.runs.reduce((sum, run) => sum + allTokens(run.usage), 0);
  return `<tr class="case" data-key="${h(key)}" data-status="${h(result.status)}" data-details="case-${i}"><td><a href="#case-${i}">${h(key)}</a></td><td class="${h(result.status)}">${h(result.status.replace('_', ' '))}</td><td>${result.status === 'not_run' ? '' : `${passed}/${result.runs.length}`}</td><td>${turns}</td><td>${count(tokens)}</td><td>${result.status === 'not_run' ? '' : h(formatCasesCost([result]))}</td><td>${h(clip(whyText(result), 200))}</td></tr>`;
}

function whyText(result: CaseResult): string {
  if (result.status === 'passed') return '';
  if (result.status === 'not_run') return result.not_run_reason ?? 'not run';
  for (const run of result.runs) {
    if (run.passed) continue;
    if (run.infrastructure !== undefined) return `infrastructure error at ${run.infrastructure.endpoint}: ${run.infrastructure.code}: ${run.infrastructure.message}`;
    const failing = run.expectations.find((expectation) => !expectation.passed);
    if (failing !== undefined) return `${failing.kind}: ${failing.reason}`;
    if (run.error !== null) return `${run.error.code}: ${run.error.message}`;
  }
  return '';
}

function caseDetails(result: CaseResult, i: number, repeat: number): string {
  const head = `${h(`${result.suite}/${result.id}`)} <span class="${h(result.status)}">${h(result.status.replace('_', ' '))}</span>`;
  const notRun = result.status === 'not_run' ? `<p>Not run: ${h(result.not_run_reason ?? '')}</p>` : '';
  const runs = result.runs.map((run) => runSection(run, repeat)).join('\n');
  return `<details class="case" id="case-${i}"><summary>${head}</summary>
<p>Threshold ${result.threshold}${result.pass_rate === null ? '' : ` · pass rate ${result.pass_rate}`}${result.line === undefined ? '' : ` · line ${result.line} of its suite file`}</p>
${result.prompt === undefined ? '' : `<h4>Prompt</h4><pre class="prompt">${h(result.prompt)}</pre>`}
${notRun}${runs}
</details>`;
}

function runSection(run: CaseRun, repeat: number): string {
  const title = repeat > 1 ? `Run ${run.repeat}/${repeat}` : 'Run';
  const infra =
    run.infrastructure === undefined ? '' : `<p class="infra">Infrastructure error at ${h(run.infrastructure.endpoint)}: <b>${h(run.infrastructure.code)}</b>: ${h(run.infrastructure.message)}</p>`;
  const error = run.error === null || run.infrastructure !== undefined ? '' : `<p class="verdict-fail">${h(run.error.code)}: ${h(run.error.message)}</p>`;
  const verdicts = run.expectations
    .map(
      (expectation) =>
        `<li class="${expectation.passed ? 'verdict-pass' : 'verdict-fail'}">${expectation.passed ? '✔' : '✘'} <b>${h(expectation.kind)}</b>: ${h(expectation.reason)}${expectation.score === undefined ? '' : ` (score ${expectation.score})`}${expectation.cost_usd === undefined ? '' : ` · ${h(formatCost(expectation.cost_usd))}`}</li>`,
    )
    .join('');
  const usage = `${run.usage.input_tokens} in, ${run.usage.output_tokens} out, ${run.usage.cache_creation_input_tokens} cache write, ${run.usage.cache_read_input_tokens} cache read`;
  return `<section class="run"><h3>${title}: <span class="${run.passed ? 'passed' : 'failed'}">${run.passed ? 'passed' : 'not passed'}</span> · ${h(run.status)} · ${run.turns} turns · ${run.attempts} attempts · ${(run.duration_ms / 1000).toFixed(1)} s</h3>
${infra}${error}<h4>Expectations</h4><ul>${verdicts}</ul>
<h4>Usage and cost</h4><p>${usage} · ${h(formatCost(run.cost_usd))}</p>
${callsTable(run)}
${filesSection(run)}
<h4>Final answer</h4><pre class="answer">${h(run.final_text)}</pre>
<h4>Transcript (tool calls, gate decisions, results)</h4><pre class="transcript">${transcriptHtml(run.transcript_tail)}</pre></section>`;
}

/** Every tool call kept in the report: the input, the gate's decision and reason (a denial highlighted), the result. */
function callsTable(run: CaseRun): string {
  if (run.calls === undefined || run.calls.length === 0) return '';
  const rows = run.calls.map((call) => {
    const decision = call.allowed === null ? 'no decision' : call.allowed ? 'allowed' : `denied${call.code === undefined ? '' : ` ${call.code}`}`;
    const result = call.ok === null ? '' : `${call.ok ? '✔' : '✘'} ${call.summary ?? ''}`;
    return `<tr class="call${call.allowed === false ? ' denied' : ''}"><td>${h(call.tool)}</td><td><code>${h(call.input)}</code></td><td>${h(decision)}${call.reason === undefined ? '' : `: ${h(call.reason)}`}</td><td>${h(result)}</td></tr>`;
  });
  return `<h4>Tool calls</h4><table class="calls"><thead><tr><th>Tool</th><th>Input</th><th>Gate</th><th>Result</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** Why a changed file has no diff, in words. */
const NO_DIFF: Readonly<Record<NonNullable<ReportedFile['omitted']>, string>> = {
  binary: 'binary (not UTF-8 text): no diff',
  too_large: 'too large to read: no diff',
  not_a_regular_file: 'not a regular file: no diff',
  before_unreadable: 'its text before the run could not be read: no diff',
  budget: "the run's diffs reached their bound: no diff",
  deleted: 'deleted',
};

/** The files the run changed, each with its unified diff (escaped line by line: agent text), or why it has none. */
function filesSection(run: CaseRun): string {
  if (run.files === undefined) return '';
  const files = run.files.map((file) => {
    const head = `<p class="file"><b>${h(file.change)}</b> <code>${h(file.path)}</code> · ${file.size} bytes${file.omitted === undefined ? '' : ` · ${h(NO_DIFF[file.omitted])}`}</p>`;
    return file.diff === undefined ? head : `${head}<pre class="diff">${diffHtml(file.diff)}</pre>`;
  });
  const cut = run.files_cut === undefined ? '' : `<p class="infra">Not all changed files are listed: ${h(run.files_cut)}</p>`;
  return `<h4>Files changed</h4>${run.files.length === 0 ? '<p>None.</p>' : files.join('')}${cut}`;
}

function diffHtml(diff: string): string {
  const classOf = (line: string) => (line.startsWith('@@') ? 'diff-hunk' : line.startsWith('+') ? 'diff-add' : line.startsWith('-') ? 'diff-del' : undefined);
  return diff
    .split('\n')
    .map((line) => {
      const cls = classOf(line);
      return cls === undefined ? h(line) : `<span class="${cls}">${h(line)}</span>`;
    })
    .join('\n');
}

/** The transcript tail, each line escaped; a gate denial highlighted. */
function transcriptHtml(tail: string): string {
  return tail
    .split('\n')
    .map((line) => (/^\s*✘ denied /.test(line) ? `<span class="denied">${h(line)}</span>` : h(line)))
    .join('\n');
}

const allTokens = (usage: CaseRun['usage']) => usage.input_tokens + usage.output_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
const count = (value: number) => value.toLocaleString('en-US');
const clip = (text: string, limit: number) => (text.length > limit ? `${text.slice(0, limit)}…` : text);
