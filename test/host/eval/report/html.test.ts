// The HTML reporter as text: everything from the report escaped, the CSP meta
// present, no external URL. test/e2e/html-report.test.ts loads it in chromium.
import test from 'ava';
import { escapeHtml, formatHtmlReport } from '../../../../src/host/eval/report/html.js';
import { HOSTILE, htmlSample } from '../../../fixtures/html-sample.js';

test('escapeHtml escapes the five characters that end an element or an attribute', (t) => {
  t.is(escapeHtml(`<a href="x" title='y'>&</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&lt;/a&gt;');
});

test('agent text appears only escaped: no tag, no attribute, no script from it', (t) => {
  const html = formatHtmlReport(htmlSample());
  t.false(html.includes('<img'), 'no image tag');
  t.false(html.includes('<script>window'), 'no script from agent text');
  t.false(html.includes('<a href="javascript'), 'no link from agent text');
  t.true(html.includes(escapeHtml(HOSTILE)), 'the answer is there, as text');
  t.is(html.match(/<script>/g)?.length, 1, "only the page's own script");
  t.true(html.includes('hostile&lt;b&gt;'), 'a case id is escaped too');
});

test("a changed file's diff holding </script><script> and <img onerror> is shown escaped, line by line", (t) => {
  const html = formatHtmlReport(htmlSample());
  t.true(html.includes(`<span class="diff-add">+${escapeHtml(HOSTILE)}</span>`), 'the added line, escaped');
  t.true(html.includes('<b>modified</b> <code>README.md</code>'));
  t.true(html.includes('<b>added</b> <code>logo.png</code> · 2048 bytes · binary (not UTF-8 text): no diff'));
  t.false(html.includes('<img'), 'no image tag from a diff');
  t.is(html.match(/<script>/g)?.length, 1, "only the page's own script");
});

test('the page loads nothing: a CSP meta with no source but its own, and no external URL outside agent text', (t) => {
  const html = formatHtmlReport(htmlSample());
  t.regex(
    html,
    /<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;; script-src &#39;sha256-[A-Za-z0-9+/]+=*&#39;; img-src &#39;none&#39;; connect-src &#39;none&#39;/,
  );
  const withoutAgentText = html.replaceAll(escapeHtml(HOSTILE), '').replaceAll(escapeHtml(JSON.stringify(HOSTILE)), '');
  t.false(/https?:\/\//.test(withoutAgentText.replace(/http:\/\/127\.0\.0\.1:9/g, '')), 'no URL of the page itself');
});
