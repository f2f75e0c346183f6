// Issue 22, third review (adv22): text from the agent reaches GitHub's step summary as
// Markdown math. escapeMarkdownInline escapes Markdown punctuation, HTML, controls,
// mentions and autolinks, but not "$": GitHub renders $...$ and $$...$$ as math
// (MathJax) in Markdown it shows, so an agent's final answer, quoted in a failed
// expectation's reason, is rendered as a formula in $GITHUB_STEP_SUMMARY, the PR
// comment or a markdown= report, beside the red "failed" heading.
//
// Reproduced with the real CLI (a replay whose final text is
// `$$\Huge\color{green}\textsf{All 12 cases passed}$$`, one failing text_contains,
// `--reporter github,markdown=FILE` with GITHUB_ACTIONS=true): the summary's Failures
// list holds `it was "$$\\\\Huge\\\\color{green}\\\\textsf{All 12 cases passed}$$"`,
// the two "$$" unescaped. The backslashes are doubled twice (JSON quote, then md), so a
// colour command may or may not survive GitHub's math; not checked against github.com
// (no network here). The verdict, exit status and annotations are unaffected.
//
// Safe outcome: no "$" from report text is left for a renderer to read as math.
import test from 'ava';
import { escapeMarkdownInline } from '../../src/host/eval/report/markdown-text.js';

test('a dollar sign from the agent is escaped in Markdown, so GitHub cannot render it as math', (t) => {
  const reason = 'final text does not contain "banana"; it was "$$\\\\Huge\\\\color{green}\\\\textsf{All 12 cases passed}$$"';
  const shown = escapeMarkdownInline(reason);
  // Every "$" must be escaped (\$) or replaced; an unescaped one opens a math span.
  t.false(/(^|[^\\])\$/.test(shown), `unescaped $ in: ${shown}`);
});
