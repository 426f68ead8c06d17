import t from 'tap'
import type { LookupAddress } from 'node:dns'
import { classifyAddress, CONNECTION_FAILED, literalTargetRefused, outboundPolicy, outboundUrlProblem, pinnedLookup, redirectUrlProblem, type Resolver } from '../../server/url-policy.ts'

// The pure rules of server/url-policy.ts, with an injected resolver (no DNS, no socket); url-policy.test.ts
// covers the notations of special addresses and the connections themselves.
const names: Record<string, string[]> = { 'public.test': ['93.184.215.14', '2606:4700:4700::1111'], 'inside.test': ['192.168.0.9'] }
const resolve: Resolver = async (host) => names[host] ?? []
const production = outboundPolicy(true, { resolve })
const development = outboundPolicy(false, { resolve })

t.test('classifyAddress reads brackets and zone ids, and calls nothing unparseable public', async (t) => {
  t.equal(classifyAddress('[2606:4700:4700::1111]'), 'public')
  t.equal(classifyAddress('fe80::1%eth0'), 'special', 'a zone id is stripped, the link-local address stays special')
  t.equal(classifyAddress('[::1]'), 'special')
  for (const value of ['', '999.1.1.1', 'example.com', '::ffff:'] as const) t.equal(classifyAddress(value), 'special', JSON.stringify(value))
})

t.test('outboundUrlProblem: the URL itself, before any address', async (t) => {
  for (const policy of [production, development]) {
    t.equal(await outboundUrlProblem('/relative/path', policy), 'must be an absolute URL')
    t.equal(await outboundUrlProblem('ftp://public.test/x', policy), 'must be an http(s) URL')
    t.equal(await outboundUrlProblem('javascript:alert(1)', policy), 'must be an http(s) URL')
    t.equal(await outboundUrlProblem('https://user:pass@public.test/x', policy), 'must not carry credentials')
    t.equal(await outboundUrlProblem('https://token@public.test/x', policy), 'must not carry credentials')
  }
  t.equal(await outboundUrlProblem('https://public.test/x', production), null, 'every address public')
  t.match(await outboundUrlProblem('https://shop.localhost/x', production), /special-use range/, 'a .localhost name is this machine, whatever DNS says')
  t.match(await outboundUrlProblem('https://inside.test/x', production), /special-use range/)
  t.equal(await outboundUrlProblem('https://failing.test/x', outboundPolicy(true, { resolve: async () => { throw new Error('SERVFAIL') } })), 'host does not resolve',
    'a resolver error is no answer')
  t.equal(await outboundUrlProblem('http://localhost:3000/x', development), null, 'development takes any http(s) target')
})

t.test('literalTargetRefused: judged at send time without a lookup', async (t) => {
  t.notOk(literalTargetRefused('http://127.0.0.1/x', development), 'development sends anywhere')
  t.ok(literalTargetRefused('not a url', production))
  t.ok(literalTargetRefused('http://93.184.215.14/x', production), 'production wants https')
  t.ok(literalTargetRefused('https://[::1]/x', production))
  t.ok(literalTargetRefused('https://10.0.0.1/x', production))
  t.ok(literalTargetRefused('https://a.localhost/x', production))
  t.notOk(literalTargetRefused('https://93.184.215.14/x', production), 'a public literal goes on')
  t.notOk(literalTargetRefused('https://inside.test/x', production), 'a host name is left to the connect-time lookup')
})

/** pinnedLookup's answer through its callback, as net.connect receives it. */
const lookup = async (policy: ReturnType<typeof outboundPolicy>, host: string, all: boolean) =>
  await new Promise<{ error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number }>((resolve) => {
    pinnedLookup(policy)(host, { all }, (error, address, family) => { resolve({ error, address, family }) })
  })

t.test('pinnedLookup answers with the checked addresses, or refuses the connection', async (t) => {
  t.same(await lookup(production, 'public.test', false), { error: null, address: '93.184.215.14', family: 4 })
  t.same((await lookup(production, 'public.test', true)).address, [{ address: '93.184.215.14', family: 4 }, { address: '2606:4700:4700::1111', family: 6 }])
  t.match(await lookup(production, '[inside.test]', false), { error: { message: CONNECTION_FAILED, code: 'EREFUSED_TARGET' } }, 'brackets stripped, private refused')
  t.match(await lookup(production, 'nowhere.test', false), { error: { message: CONNECTION_FAILED, code: 'ENOTFOUND' } })
  t.same(await lookup(development, 'inside.test', false), { error: null, address: '192.168.0.9', family: 4 }, 'development connects to private addresses')
})

t.test('redirectUrlProblem: browsers visit redirects, so only the scheme rule applies', async (t) => {
  t.equal(redirectUrlProblem('https://inside.test/cb', true), null, 'a private host is the browser\'s business')
  t.equal(redirectUrlProblem('http://localhost:3000/cb', true), null, 'loopback http for local development')
  t.equal(redirectUrlProblem('http://127.0.0.1:3000/cb', true), null)
  t.equal(redirectUrlProblem('http://public.test/cb', true), 'must use https in production')
  t.equal(redirectUrlProblem('http://public.test/cb', false), null)
  t.equal(redirectUrlProblem('https://public.test/cb#frag', false), 'must not contain a fragment')
  t.equal(redirectUrlProblem('myapp://cb', false), 'must be an http(s) URL')
  t.equal(redirectUrlProblem('cb', false), 'must be an absolute URL')
})
