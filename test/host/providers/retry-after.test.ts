// How long a provider asked zotbox to wait: retry-after-ms, retry-after in
// seconds, retry-after as an HTTP date; anything else is no answer.
import test from 'ava';
import { parseRetryAfterMs } from '../../../src/host/providers/retry-after.js';

const NOW = Date.UTC(2025, 0, 1, 0, 0, 0); // Wed, 01 Jan 2025 00:00:00 GMT

const waits = test.macro((t, headers: Record<string, string | string[]>, expected: number | undefined) => {
  t.is(parseRetryAfterMs(headers, NOW), expected);
});

test('retry-after in whole seconds', waits, { 'retry-after': '7' }, 7000);
test('retry-after in fractional seconds rounds up to the millisecond', waits, { 'retry-after': '0.0015' }, 2);
test('retry-after of zero', waits, { 'retry-after': '0' }, 0);
test('retry-after-ms', waits, { 'retry-after-ms': '1250' }, 1250);
test('retry-after-ms wins over retry-after', waits, { 'retry-after-ms': '300', 'retry-after': '9' }, 300);
test('an unreadable retry-after-ms falls back to retry-after', waits, { 'retry-after-ms': 'soon', 'retry-after': '2' }, 2000);
test('retry-after as an HTTP date nine seconds ahead', waits, { 'retry-after': 'Wed, 01 Jan 2025 00:00:09 GMT' }, 9000);
test('retry-after as an HTTP date in the past is no wait', waits, { 'retry-after': 'Tue, 31 Dec 2024 23:59:00 GMT' }, 0);
test('a repeated header uses the first value', waits, { 'retry-after': ['3', '8'] }, 3000);
test('no header is no answer', waits, {}, undefined);
test('a negative number is no answer', waits, { 'retry-after': '-5' }, undefined);
test('free text is no answer', waits, { 'retry-after': 'in 5 minutes' }, undefined);
test('a date without GMT is no answer', waits, { 'retry-after': 'Wed, 01 Jan 2025 00:00:09' }, undefined);
test('an impossible date is no answer', waits, { 'retry-after': 'Wed, 45 Foo 2025 99:00:09 GMT' }, undefined);
