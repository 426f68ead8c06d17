import t from 'tap'
import { createServer } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import { request } from 'undici'
import { classifyAddress, outboundAgent, outboundPolicy, outboundUrlProblem, type Resolver } from '../../server/url-policy.ts'
import { build } from '../helper.ts'
import { installApp } from '../plugins/webhooks/helpers.ts'

t.test('classifyAddress: only global unicast is public, whatever the notation', async (t) => {
  for (const address of ['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '64:ff9b::5db8:d70e']) {
    t.equal(classifyAddress(address), 'public', address)
  }
  const special = [
    '127.0.0.1', '::ffff:127.0.0.1', '::7f00:1', '::127.0.0.1', '::a01:203', '::ffff:7f00:1', '64:ff9b::7f00:1', '64:ff9b::a01:203', '64:ff9b:1::a01:203', '10.1.2.3', '172.16.0.1',
    '192.168.1.1', '100.64.0.1', '169.254.169.254', '0.0.0.0', '198.18.0.1', '192.0.2.1', '224.0.0.1', '240.0.0.1', '255.255.255.255',
    '::1', '::', 'fe80::1', 'fe90::1', 'fc00::1', 'fd12::1', 'ff02::1', '2001:db8::1', 'not-an-address'
  ]
  for (const address of special) t.equal(classifyAddress(address), 'special', address)
})

t.test('outboundUrlProblem in production', async (t) => {
  const names: Record<string, string[]> = { 'public.test': ['93.184.215.14'], 'inside.test': ['10.0.0.7'], 'mixed.test': ['93.184.215.14', '127.0.0.1'] }
  const policy = outboundPolicy(true, { resolve: async (host) => names[host] ?? [] })
  t.equal(await outboundUrlProblem('https://public.test/h', policy), null)
  for (const url of ['https://[::ffff:127.0.0.1]:3207/', 'https://[64:ff9b::7f00:1]/', 'https://[fe90::1]/', 'https://198.18.0.1/', 'https://224.0.0.1/',
    'https://inside.test/h', 'https://mixed.test/h', 'https://localhost/h']) {
    t.match(await outboundUrlProblem(url, policy), /private address or any other special-use range/, url)
  }
  t.equal(await outboundUrlProblem('https://nowhere.test/h', policy), 'host does not resolve')
  t.equal(await outboundUrlProblem('http://public.test/h', policy), 'must use https in production')
  t.equal(await outboundUrlProblem('https://[::ffff:127.0.0.1]/', outboundPolicy(false)), null, 'development accepts any http(s) target')
})

t.test('production connections go to the address that was checked', async (t) => {
  const server = createServer((request, response) => { response.end('reached') }).listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.close() })
  const port = (server.address() as AddressInfo).port
  // 127.0.0.1 stands in for a public host here; everything else is classified as usual
  const classify = (address: string) => (address === '127.0.0.1' ? 'public' as const : classifyAddress(address))

  const pinned = outboundAgent(outboundPolicy(true, { resolve: async () => ['127.0.0.1'], classify }))
  t.teardown(() => pinned.close())
  const reached = await request(`http://receiver.test:${port}/`, { dispatcher: pinned })
  t.equal(await reached.body.text(), 'reached', 'the host name was resolved by the policy and connected to')

  // DNS rebinding: public when checked at registration, loopback at connect time
  let lookups = 0
  const rebinding: Resolver = async () => (lookups++ === 0 ? ['93.184.215.14'] : ['127.0.0.2'])
  const policy = outboundPolicy(true, { resolve: rebinding, classify })
  t.equal(await outboundUrlProblem(`https://rebind.test:${port}/`, policy), null, 'the registration-time check passes')
  const agent = outboundAgent(policy)
  t.teardown(() => agent.close())
  await t.rejects(request(`http://rebind.test:${port}/`, { dispatcher: agent }), { message: 'connection failed' }, 'the connect-time answer is refused')
})

t.test('POST /webhooks/:id/test in production says "connection failed" and nothing more', async (t) => {
  let lookups = 0
  const app = await build(t, {
    env: { PLATFORM_ENV: 'production' },
    // public at registration, then loopback: what an attacker's DNS would answer
    outbound: { resolve: async () => (lookups++ === 0 ? ['93.184.215.14'] : ['127.0.0.1']) }
  })
  const installed = await installApp(app, { webhookUrl: 'https://93.184.215.14/webhooks' })
  const created = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: 'https://attacker.test:3207/hook', events: ['order.created'] } })
  t.equal(created.statusCode, 201)
  const tested = await app.inject({ method: 'POST', url: `/webhooks/${created.json().id}/test`, headers: installed.auth })
  t.match(tested.json(), { success: false, statusCode: null, error: 'connection failed' })
  t.notMatch(tested.body, /3207|127\.0\.0\.1|ECONN/, 'no port, address or socket error reaches the app')

  const literal = await app.inject({ method: 'POST', url: '/webhooks', headers: installed.auth, payload: { url: 'https://[::ffff:127.0.0.1]:3207/', events: ['order.created'] } })
  t.equal(literal.statusCode, 400, 'an IPv4-mapped loopback literal is refused at registration')
})
