// The JUnit reporter, read back with a real XML parser: counts, names, messages,
// and hostile strings that must not break out of their element or attribute.
import test from 'ava';
import { XMLParser } from 'fast-xml-parser';
import type { EvalReport } from '../../../../src/host/eval/eval-report.js';
import { formatJunit } from '../../../../src/host/eval/report/junit.js';
import { sampleReport, sampleRun } from '../../../fixtures/eval-reports.js';

interface Testcase {
  name: string;
  classname: string;
  time: string;
  failure?: { message: string; type: string; '#text': string };
  error?: { message: string; type: string; '#text': string };
  skipped?: { message: string };
  'system-out'?: string;
}
interface Testsuite {
  name: string;
  tests: string;
  failures: string;
  errors: string;
  skipped: string;
  time: string;
  properties: { property: { name: string; value: string }[] };
  testcase: Testcase[];
}
interface Parsed {
  testsuites: { name: string; tests: string; failures: string; errors: string; skipped: string; time: string; testsuite: Testsuite[] };
}

const XML_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML 1.0's five entities and character references (&#10; &#x1F600;), decoded once, in one pass. */
const xmlEntityDecoder = {
  setExternalEntities: () => undefined,
  addInputEntities: () => undefined,
  reset: () => undefined,
  setXmlVersion: () => undefined,
  decode: (encoded: string) =>
    encoded.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, ref: string) => {
      if (ref.startsWith('#x')) return String.fromCodePoint(Number.parseInt(ref.slice(2), 16));
      if (ref.startsWith('#')) return String.fromCodePoint(Number.parseInt(ref.slice(1), 10));
      return XML_ENTITIES[ref] ?? whole;
    }),
};

function parse(xml: string): Parsed {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    trimValues: false,
    parseTagValue: false,
    parseAttributeValue: false,
    entityDecoder: xmlEntityDecoder,
    isArray: (name) => ['testsuite', 'testcase', 'property'].includes(name),
  });
  return parser.parse(xml) as Parsed;
}

test('the root counts every testcase: one per case and repeat, failures, errors, skipped, the eval time', (t) => {
  const root = parse(formatJunit(sampleReport())).testsuites;
  // 6 cases ran twice (12 testcases) + 1 not run; failures: extract-fn #2, cites-source #1 and #2; errors: no-start #1 and #2.
  t.like(root, { name: 'zotbox eval', tests: '13', failures: '3', errors: '2', skipped: '1', time: '60.000' });
  t.deepEqual(
    root.testsuite.map((suite) => [suite.name, suite.tests, suite.failures, suite.errors, suite.skipped, suite.time]),
    [
      ['refactor', '8', '1', '2', '0', '9.010'],
      ['docs-qa', '5', '2', '0', '1', '6.000'],
    ],
  );
});

test('testcases are named <case id> [repeat i/n], classname the suite, time in seconds', (t) => {
  const [refactor] = parse(formatJunit(sampleReport())).testsuites.testsuite;
  t.deepEqual(
    refactor!.testcase.slice(0, 2).map((testcase) => [testcase.name, testcase.classname, testcase.time]),
    [
      ['rename-symbol [repeat 1/2]', 'refactor', '1.500'],
      ['rename-symbol [repeat 2/2]', 'refactor', '1.500'],
    ],
  );
  t.deepEqual(
    refactor!.properties.property.find((property) => property.name === 'model'),
    { name: 'model', value: 'replay' },
  );
});

test('each folder --allow-scope allowed is a property of every testsuite; none without it', (t) => {
  const report = sampleReport();
  const allowed: EvalReport = { ...report, options: { ...report.options, allow_scope: ['/srv/data', '/opt/x & "y"'] } };
  for (const suite of parse(formatJunit(allowed)).testsuites.testsuite) {
    t.deepEqual(
      suite.properties.property.filter((property) => property.name === 'allow_scope').map((property) => property.value),
      ['/srv/data', '/opt/x & "y"'],
    );
  }
  for (const suite of parse(formatJunit(report)).testsuites.testsuite) t.false(suite.properties.property.some((property) => property.name === 'allow_scope'));
});

test('with --repeat 1 a testcase is named by the case id alone', (t) => {
  const report = sampleReport();
  report.options.repeat = 1;
  report.cases = [{ ...report.cases[0]!, runs: [sampleRun(1)] }];
  t.is(parse(formatJunit(report)).testsuites.testsuite[0]!.testcase[0]!.name, 'rename-symbol');
});

test('a failed run is a <failure> with its failing expectations; system-out is its transcript tail', (t) => {
  const [refactor, docs] = parse(formatJunit(sampleReport())).testsuites.testsuite;
  const extract = refactor!.testcase.find((testcase) => testcase.name === 'extract-fn [repeat 2/2]')!;
  t.deepEqual(extract.failure, { message: 'file_json: src/a.ts: expected a function named extract', type: 'file_json', '#text': 'file_json: src/a.ts: expected a function named extract' });
  t.is(extract['system-out'], 'assistant: Done.');
  t.is(docs!.testcase.find((testcase) => testcase.name === 'cites-source [repeat 2/2]')!.failure?.message, 'judge: the judge found no citation');
});

test('a run that could not start is an <error> with its code', (t) => {
  const [refactor] = parse(formatJunit(sampleReport())).testsuites.testsuite;
  const noStart = refactor!.testcase.find((testcase) => testcase.name === 'no-start [repeat 1/2]')!;
  t.like(noStart.error, { type: 'ZB_EVAL_FIXTURE_INVALID', message: 'ZB_EVAL_FIXTURE_INVALID: fixture holds a socket' });
  t.is(noStart.failure, undefined);
});

test('a case that did not run is one <skipped> testcase with the reason', (t) => {
  const [, docs] = parse(formatJunit(sampleReport())).testsuites.testsuite;
  const longOne = docs!.testcase.filter((testcase) => testcase.name.startsWith('long-one'));
  t.is(longOne.length, 1);
  t.deepEqual(longOne[0]!.skipped, { message: '--max-cost-usd 5 reached' });
});

test('a failed run of a case that passed its threshold is no failure; system-out says why', (t) => {
  const [refactor] = parse(formatJunit(sampleReport())).testsuites.testsuite;
  const flaky = refactor!.testcase.find((testcase) => testcase.name === 'flaky-ok [repeat 1/2]')!;
  t.is(flaky.failure, undefined);
  t.is(flaky.error, undefined);
  t.true(flaky['system-out']!.startsWith('[zotbox] this run failed (grader: grader said: too slow), but the case passed: pass rate 0.5 >= threshold 0.5.\n'));
});

const HOSTILE = 'a</testcase><testcase name="x">]]><![CDATA[ & &amp; "q" \'s\' \t tab\r\nCRLF 😀 é';

function hostileReport(): EvalReport {
  const report = sampleReport();
  const suite = { ...report.suites[0]!, name: HOSTILE };
  report.suites = [suite];
  report.cases = [
    { ...report.cases[1]!, suite: HOSTILE, id: HOSTILE, runs: [sampleRun(1, { passed: false, transcript_tail: HOSTILE, expectations: [{ kind: HOSTILE, passed: false, reason: HOSTILE }] })] },
    { ...report.cases[6]!, suite: HOSTILE, id: 'skip', not_run_reason: HOSTILE },
  ];
  report.options.repeat = 1;
  return report;
}

test('hostile strings round-trip through names, attributes, text and system-out', (t) => {
  const root = parse(formatJunit(hostileReport())).testsuites;
  t.is(root.testsuite.length, 1);
  const [suite] = root.testsuite;
  t.is(suite!.name, HOSTILE);
  t.is(suite!.testcase.length, 2, 'no testcase was forged');
  const [ran, skipped] = suite!.testcase;
  t.is(ran!.name, HOSTILE);
  t.is(ran!.classname, HOSTILE);
  t.is(ran!.failure!.type, HOSTILE);
  t.is(ran!.failure!['#text'], `${HOSTILE}: ${HOSTILE}`);
  t.is(ran!['system-out'], HOSTILE);
  t.is(skipped!.skipped!.message, HOSTILE);
});

test('characters XML 1.0 forbids become visible \\uXXXX escapes, and none is left in the output', (t) => {
  const report = hostileReport();
  const nasty = 'bell\u0007 nul\u0000 esc\u001b lone\uD800 also\uDFFF fffe\uFFFE ffff\uFFFF ok\u0085 emoji😀';
  report.cases[1] = { ...report.cases[1]!, not_run_reason: nasty };
  report.cases[0]!.runs[0]!.transcript_tail = nasty;
  const xml = formatJunit(report);
  for (const char of xml) {
    const point = char.codePointAt(0)!;
    const allowed = point === 0x9 || point === 0xa || point === 0xd || (point >= 0x20 && point <= 0xd7ff) || (point >= 0xe000 && point <= 0xfffd) || point >= 0x10000;
    t.true(allowed, `U+${point.toString(16)} must not appear in XML 1.0`);
  }
  const expected = 'bell\\u0007 nul\\u0000 esc\\u001B lone\\uD800 also\\uDFFF fffe\\uFFFE ffff\\uFFFF ok\u0085 emoji😀';
  const [ran, skipped] = parse(xml).testsuites.testsuite[0]!.testcase;
  t.is(skipped!.skipped!.message, expected);
  t.is(ran!['system-out'], expected);
});
