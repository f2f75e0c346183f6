// Finding (fixed: the proxy counts a request's line and headers as it parsed them,
// then its body): what a plain http request carries out in its request line and headers
// is not counted. docs/permissions.md promises each net.connect event gives the
// bytes each way; for an absolute-form request the proxy counts only the body
// (`req.on('data')`), so a GET carrying 6000 bytes in its query and 6000 in a header
// to an allowed host is reported as `bytes_out: 0`, while the upstream received
// all of it. (The same holds for a refused CONNECT: what the command writes after
// it is reported as 0 bytes out, see sandbox-flood.open.ts.) What must not happen:
// an allowed request that carried 12000 bytes out reported as having carried less.
import { once } from 'node:events';
import { createServer } from 'node:http';
import test from 'ava';
import { carrier, DATA, OPEN } from './open/carrier.js';

test('the bytes a plain http request carries out in its URL and headers are counted', async (t) => {
  let received = 0;
  const server = createServer((req, res) => {
    received = (req.url ?? '').length + Buffer.byteLength(String(req.headers['x-data']));
    res.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => server.close());
  const port = (server.address() as { port: number }).port;
  const c = await carrier([`127.0.0.1:${port}`], async () => []);
  t.teardown(() => c.close());
  const query = 'q'.repeat(6000);
  const header = 'h'.repeat(6000);
  const recorded = c.nextRecord();
  c.sandbox.write(c.frame(OPEN, 1));
  c.sandbox.write(c.frame(DATA, 1, Buffer.from(`GET http://127.0.0.1:${port}/?${query} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nx-data: ${header}\r\nconnection: close\r\n\r\n`)));
  // The record is made when the response ends.
  const record = await recorded;
  t.log(record);
  t.true(received >= 12000, 'the upstream received the query and the header');
  t.true(record.bytesOut >= 12000, `the record says ${record.bytesOut} bytes out; the upstream received ${received} bytes of data in the URL and a header`);
});
