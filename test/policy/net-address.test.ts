import test from 'ava';
import { classifyAddress, decideAddress } from '../../src/policy/net-address.js';
import { compileNetAllow } from '../../src/policy/net-allow.js';

const refused = test.macro({
  exec(t, address: string, range: RegExp) {
    const cls = classifyAddress(address);
    if (cls.routable) return t.fail(`${address} was classified routable`);
    t.regex(cls.range, range);
  },
  title: (_, address: string) => `${address} is not routable`,
});

test(refused, '10.1.2.3', /private/);
test(refused, '172.16.0.1', /private/);
test(refused, '172.31.255.255', /private/);
test(refused, '192.168.1.1', /private/);
test(refused, '127.0.0.1', /loopback/);
test(refused, '127.255.0.9', /loopback/);
test(refused, '0.0.0.0', /this network/);
test(refused, '169.254.169.254', /metadata/);
test(refused, '100.64.0.1', /CGNAT/);
test(refused, '100.100.100.200', /CGNAT/);
test(refused, '224.0.0.1', /multicast/);
test(refused, '255.255.255.255', /broadcast/);
test(refused, '::1', /loopback/);
test(refused, '::', /unspecified/);
test(refused, '::ffff:127.0.0.1', /IPv4-mapped loopback/);
test(refused, '::ffff:7f00:1', /IPv4-mapped loopback/);
test(refused, '::ffff:8.8.8.8', /IPv4-mapped/);
test(refused, 'fd00::1', /unique local/);
test(refused, 'fc00::1', /unique local/);
test(refused, 'fd00:ec2::254', /unique local/);
test(refused, 'fe80::1', /link-local/);
test(refused, 'fe80::1%eth0', /not an IP address/);
test(refused, 'ff02::1', /multicast/);
test(refused, '64:ff9b::a9fe:a9fe', /NAT64 of link-local/);
test(refused, '64:ff9b::127.0.0.1', /NAT64 of loopback/);
test(refused, '2002:7f00:1::1', /6to4 of loopback/);
test(refused, '2001:db8::1', /documentation/);
test(refused, 'example.com', /not an IP address/);

for (const address of ['8.8.8.8', '140.82.112.3', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '64:ff9b::808:808', '2002:808:808::1']) {
  test(`${address} is routable`, (t) => t.true(classifyAddress(address).routable));
}

const rules = (...entries: string[]) => {
  const compiled = compileNetAllow(entries);
  if (!compiled.ok) throw new Error(compiled.reason);
  return compiled.rules;
};

test('a private address is allowed only when net.allow names it with the port', (t) => {
  t.false(decideAddress(rules('internal.example.com'), 'name', '10.0.0.5', 443).allow);
  t.false(decideAddress(rules('internal.example.com', '10.0.0.5:8443'), 'name', '10.0.0.5', 443).allow);
  t.true(decideAddress(rules('internal.example.com', '10.0.0.5:443'), 'name', '10.0.0.5', 443).allow);
  t.true(decideAddress(rules('[::1]:8080'), 'name', '0:0::1', 8080).allow);
  t.false(decideAddress(rules('127.0.0.1:8080'), 'name', '::ffff:127.0.0.1', 8080).allow);
  t.true(decideAddress(rules('example.com'), 'name', '93.184.216.34', 443).allow);
});

test('an unspecified address is never a destination, even when a rule names it', (t) => {
  for (const [host, kind] of [
    ['0.0.0.0', 'ipv4'],
    ['::', 'ipv6'],
  ] as const) {
    const named = [{ entry: `${host}:8080`, kind, host, wildcard: false, port: 8080 }];
    const decision = decideAddress(named, kind, host, 8080);
    t.false(decision.allow, host);
    if (!decision.allow) t.regex(decision.reason, /unspecified address/);
  }
});

test('localhost:PORT allows loopback for a request that named localhost, and nothing else', (t) => {
  t.true(decideAddress(rules('localhost:3000'), 'localhost', '127.0.0.1', 3000).allow);
  t.true(decideAddress(rules('localhost:3000'), 'localhost', '::1', 3000).allow);
  t.false(decideAddress(rules('localhost:3000'), 'localhost', '127.0.0.1', 3001).allow);
  t.false(decideAddress(rules('localhost:3000', 'evil.example.com:3000'), 'name', '127.0.0.1', 3000).allow);
  t.false(decideAddress(rules('localhost:3000'), 'localhost', '10.0.0.1', 3000).allow);
});
