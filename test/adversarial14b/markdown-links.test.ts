// Adversarial review of issue 14, second pass (a hostile agent's text in the
// Markdown summary, which docs/eval.md offers as a PR comment and which goes to
// $GITHUB_STEP_SUMMARY): escapeMarkdownInline promises "never markup, HTML or a
// link", but GitHub turns bare URLs, www. names and e-mail addresses into links
// on its own (GFM autolinks), and @name into a mention that notifies that user or
// team. A failing expectation's reason quotes what the agent wrote, so the agent
// puts a clickable phishing link and pings under the project's eval summary.
import test from 'ava';
import { formatMarkdownSummary } from '../../src/host/eval/report/markdown.js';
import { escapeMarkdownInline } from '../../src/host/eval/report/markdown-text.js';
import { sampleReport } from '../fixtures/eval-reports.js';

// What GitHub would autolink or turn into a mention in one line of text.
const AUTOLINK = /https?:\/\/|www\.|[A-Za-z0-9._+-]@[A-Za-z0-9-]+\.[A-Za-z]/;
const MENTION = /(^|[^A-Za-z0-9`\\])@[A-Za-z0-9]/;

test('a bare URL or www. name in agent text is no link', (t) => {
  t.notRegex(escapeMarkdownInline('log in again at https://evil.example/login'), AUTOLINK);
  t.notRegex(escapeMarkdownInline('see www.evil.example for the fix'), AUTOLINK);
  t.notRegex(escapeMarkdownInline('[click](https://evil.example)'), AUTOLINK);
});

test('an e-mail address in agent text is no mailto link', (t) => {
  t.notRegex(escapeMarkdownInline('write to admin@evil.example'), AUTOLINK);
});

test('an @mention in agent text notifies nobody', (t) => {
  t.notRegex(escapeMarkdownInline('ping @octocat and @my-org/security'), MENTION);
});

test('the summary of a run whose agent wrote a URL and a mention holds neither', (t) => {
  const report = sampleReport();
  const failing = report.cases.find((result) => result.id === 'extract-fn')!;
  const run = failing.runs.find((entry) => !entry.passed)!;
  run.expectations = run.expectations.map((expectation) => (expectation.passed ? expectation : { ...expectation, reason: 'src/a.ts: found "@octocat urgent: https://evil.example/fix"' }));
  const summary = formatMarkdownSummary(report);
  t.true(summary.includes('urgent'), 'the reason is in the summary');
  t.notRegex(summary, AUTOLINK);
  t.notRegex(summary, MENTION);
});
