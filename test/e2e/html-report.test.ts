// Issue 27 §4: the HTML report in real headless chromium. The page is loaded from
// a file, its counts are checked, a case is expanded and filtered, and a
// screenshot is taken; agent text with </script>, <img onerror> and a javascript:
// link is shown as text and never runs; the page makes no request but itself.
import test from 'ava';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatHtmlReport } from '../../src/host/eval/report/html.js';
import { Chromium } from '../fixtures/chromium.js';
import { HOSTILE, htmlSample } from '../fixtures/html-sample.js';
import { tempDir } from '../fixtures/temp.js';

test('the HTML report in headless chromium: counts, a case expanded, the filter, no script from agent text, no request', async (t) => {
  const report = htmlSample();
  const file = path.join(tempDir(t), 'report.html');
  writeFileSync(file, formatHtmlReport(report));
  const browser = Chromium.launch();
  t.teardown(() => browser.close());
  const session = await browser.page();
  const requests: string[] = [];
  browser.on((message) => {
    if (message.method === 'Network.requestWillBeSent' && message.sessionId === session) requests.push(String((message.params?.request as { url?: string }).url));
  });
  const loaded = browser.next('Page.loadEventFired', session);
  await browser.send('Page.navigate', { url: pathToFileURL(file).href }, session);
  await loaded;
  const counts = await browser.evaluate(session, `['total-cases','total-passed','total-failed','total-errors','total-not-run'].map((id) => document.getElementById(id).textContent)`);
  t.deepEqual(counts, [String(report.totals.cases), String(report.totals.passed), String(report.totals.failed), '1', String(report.totals.not_run)]);
  t.deepEqual(counts, ['9', '3', '4', '1', '1']);
  t.is(await browser.evaluate(session, `document.querySelectorAll('tr.case').length`), 9);
  t.is(await browser.evaluate(session, 'window.__pwned'), undefined, 'no agent text ran');
  t.is(await browser.evaluate(session, `document.querySelectorAll('img, a[href^="javascript"], script').length`), 1, 'only the page script');
  // Expand the hostile case by clicking its summary: its answer is there as text.
  t.false(await browser.evaluate(session, `document.getElementById('case-7').open`));
  await browser.evaluate(session, `document.querySelector('#case-7 summary').click()`);
  t.true(await browser.evaluate(session, `document.getElementById('case-7').open`));
  t.is(await browser.evaluate(session, `document.querySelector('#case-7 pre.answer').textContent`), HOSTILE);
  t.regex(String(await browser.evaluate(session, `document.querySelector('#case-7 pre.transcript .denied').textContent`)), /✘ denied ZB_POLICY_PATH_OUTSIDE_SCOPE/);
  t.is(await browser.evaluate(session, `document.querySelector('#case-7 pre.prompt').textContent`), `Review this: ${HOSTILE}`);
  t.deepEqual(await browser.evaluate(session, `[...document.querySelectorAll('#case-7 tr.call')].map((row) => [row.className, row.cells[2].textContent])`), [
    ['call denied', 'denied ZB_POLICY_PATH_OUTSIDE_SCOPE: read denied: /etc/passwd is outside the read scopes'],
    ['call', 'allowed'],
  ]);
  // Its changed files with their diffs: the hostile line added to README.md, as text.
  t.deepEqual(await browser.evaluate(session, `[...document.querySelectorAll('#case-7 p.file code')].map((c) => c.textContent)`), ['README.md', 'logo.png', 'x.html']);
  t.deepEqual(await browser.evaluate(session, `[...document.querySelectorAll('#case-7 pre.diff')[0].children].map((s) => [s.className, s.textContent])`), [
    ['diff-hunk', '@@ -1,3 +1,4 @@'],
    ['diff-add', `+${HOSTILE}`],
  ]);
  t.is(await browser.evaluate(session, 'window.__pwned'), undefined, 'no script from a diff ran');
  t.regex(String(await browser.evaluate(session, `document.querySelector('#case-8 .infra').textContent`)), /Infrastructure error at openai http:\/\/127\.0\.0\.1:9\/v1: ZB_PROVIDER_FAILED/);
  // The filter: errors only.
  await browser.evaluate(session, `(() => { const s = document.getElementById('filter-status'); s.value = 'error'; s.dispatchEvent(new Event('change')); })()`);
  t.is(await browser.evaluate(session, `document.getElementById('shown').textContent`), '1');
  t.is(await browser.evaluate(session, `[...document.querySelectorAll('tr.case')].filter((row) => !row.hidden).map((row) => row.dataset.key).join()`), 'docs-qa/server-down');
  await browser.evaluate(
    session,
    `(() => { const s = document.getElementById('filter-status'); s.value = ''; s.dispatchEvent(new Event('change')); const i = document.getElementById('filter-text'); i.value = 'HOSTILE'; i.dispatchEvent(new Event('input')); })()`,
  );
  t.is(await browser.evaluate(session, `document.getElementById('shown').textContent`), '1');
  t.is(await browser.evaluate(session, 'window.__pwned'), undefined);
  const shot = (await browser.send('Page.captureScreenshot', { format: 'png' }, session)) as { data: string };
  const png = Buffer.from(shot.data, 'base64');
  t.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG');
  t.true(png.length > 10_000);
  // ZOTBOX_SCREENSHOT=PATH keeps a tall one of the expanded case, its diffs in view (docs/eval-html-report.png is made this way).
  const keep = process.env['ZOTBOX_SCREENSHOT'];
  if (keep !== undefined && keep !== '') {
    await browser.send('Emulation.setDeviceMetricsOverride', { width: 1200, height: 2000, deviceScaleFactor: 1, mobile: false }, session);
    await browser.evaluate(session, `document.querySelector('#case-7 .file').scrollIntoView({ block: 'center' })`);
    const tall = (await browser.send('Page.captureScreenshot', { format: 'png' }, session)) as { data: string };
    writeFileSync(keep, Buffer.from(tall.data, 'base64'));
  }
  t.deepEqual(requests, [pathToFileURL(file).href], 'the page asked for nothing but itself');
});
