// Finding (fixed: a call keeps the first 64 refused attempts one by one, with hosts
// and reasons clipped, and one summary record with `dropped` for the rest): the
// records of refused attempts grew without bound, each holding up
// to two copies of text the command wrote. A refused CONNECT is recorded with its
// target as written (`String(req.url)`, or the authority's host part, up to the
// HTTP parser's 16 KiB header limit) and a reason that quotes it again; every
// record is kept in the proxy's list until the call ends, then becomes a
// net.connect event (and a line of the session). Only concurrent connections are
// bounded (256); sequential ones are not. So a command that opens connection
// after connection grows the host's memory, the event stream and the session by
// as much as it likes, and drowns the attempts that matter among them. What must
// not happen: the host keeping an unbounded amount of text the command chose.
import test from 'ava';
import { MAX_REFUSED_RECORDS } from '../../src/host/net/net-proxy.js';
import { carrier, DATA, MiB, OPEN } from './open/carrier.js';

const ATTEMPTS = 10_000;
const BATCH = 200;

test('the refused attempts of one call do not hold unbounded command text in the host', async (t) => {
  const c = await carrier(['api.example.com'], async () => ['93.184.215.14']);
  t.teardown(() => c.close());
  const filler = 'a'.repeat(4000);
  let id = 1;
  for (let done = 0; done < ATTEMPTS; done += BATCH) {
    const answers: Promise<string>[] = [];
    for (let i = 0; i < BATCH; i++, id++) {
      c.sandbox.write(c.frame(OPEN, id));
      // Labels of at most 63 characters, so the target parses as host:port and is refused as "not listed".
      const host = `${filler.match(/.{1,60}/g)!.join('.')}.example.net`;
      c.sandbox.write(c.frame(DATA, id, Buffer.from(`CONNECT ${host}:443 HTTP/1.1\r\n\r\n`)));
      answers.push(c.waitFor(id, '\r\n\r\n'));
    }
    const texts = await Promise.all(answers);
    t.true(
      texts.every((text) => text.startsWith('HTTP/1.1 403 ')),
      'each attempt was refused',
    );
    for (let i = id - BATCH; i < id; i++) {
      c.sandbox.write(c.frame(4, i));
      c.received.delete(i);
    }
  }
  // The proxy's list, as the call's end takes it (c.close() ends the call; the list is what it reported so far).
  const records = c.records();
  const size = records.reduce((sum, r) => sum + r.host.length + r.reason.length, 0);
  const summary = records.find((r) => r.dropped !== undefined);
  t.is(summary?.dropped, ATTEMPTS - MAX_REFUSED_RECORDS, 'the attempts not kept one by one are counted in a summary');
  t.is(records.length, MAX_REFUSED_RECORDS + 1);
  // Each kept record holds a clipped host (a name is at most 253 characters) and reason.
  t.true(
    records.every((r) => r.host.length <= 260 && r.reason.length <= 600),
    'hosts and reasons are clipped',
  );
  t.true(size < 8 * MiB, `${records.length} refused attempts are held with ${Math.round(size / MiB)} MiB of text the command wrote`);
});
