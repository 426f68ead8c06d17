import t, { type Test } from 'tap'
import { SMTPServer } from 'smtp-server'
import { simpleParser, type ParsedMail } from 'mailparser'
import type { AddressInfo } from 'node:net'
import { buildApp } from '../../../server/app.ts'
import { build, registerUser, testConfig, uniqueEmail, until } from '../../helper.ts'
import { addMember } from './staff-helpers.ts'

/** A real SMTP server on 127.0.0.1 that keeps every message it is given, parsed. */
async function mailbox (t: Test) {
  const received: ParsedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData (stream, _session, callback) {
      simpleParser(stream).then((mail) => { received.push(mail); callback() }, callback)
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => { await new Promise<void>((resolve) => server.close(() => { resolve() })) })
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, received }
}

t.test('with SMTP_URL the invitation is mailed, and the link in the mail joins the business', async (t) => {
  const box = await mailbox(t)
  const app = await build(t, { env: { SMTP_URL: box.url, SMTP_FROM: 'Shop Platform <staff@platform.test>' } })
  const owner = await registerUser(app, 'MERCHANT')
  const email = uniqueEmail('mailed')
  const invited = await app.inject({ method: 'POST', url: '/merchant/staff', headers: owner.auth, payload: { email, permissions: ['orders', 'reviews'] } })
  t.equal(invited.statusCode, 201)
  const { invitation, emailed } = invited.json()
  t.equal(emailed, true)
  const [mail] = await until(async () => box.received, (all) => all.length === 1)
  t.equal(mail.to !== undefined && !Array.isArray(mail.to) ? mail.to.text : '', email)
  t.match(mail.from?.text, 'staff@platform.test')
  t.match(mail.subject, /^Join Shop /)
  t.match(mail.text, 'orders, reviews')
  const link = /(https?:\/\/\S+\/invite\/\S+)/.exec(mail.text ?? '')?.[1]
  t.equal(link, invitation.link, 'the mail carries the link the owner sees')
  const token = (link as string).slice((link as string).lastIndexOf('/') + 1)
  const joined = await app.inject({ method: 'POST', url: '/auth/register', payload: { email, password: 'correct-horse', name: 'Mo Mail', role: 'MERCHANT', invitationToken: token } })
  t.equal(joined.statusCode, 201)
  t.match(joined.json().business, { id: owner.businessId, role: 'STAFF', permissions: ['orders', 'reviews'] })
})

t.test('an SMTP server that refuses: the invitation stands, emailed false, the owner has the link', async (t) => {
  const server = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], onRcptTo (_address, _session, callback) { callback(new Error('no such mailbox')) } })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => { await new Promise<void>((resolve) => server.close(() => { resolve() })) })
  const app = await build(t, { env: { SMTP_URL: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}` } })
  const owner = await registerUser(app, 'MERCHANT')
  const invited = await app.inject({ method: 'POST', url: '/merchant/staff', headers: owner.auth, payload: { email: uniqueEmail(), permissions: [] } })
  t.equal(invited.statusCode, 201)
  t.equal(invited.json().emailed, false)
  t.equal((await app.inject({ url: '/merchant/staff', headers: owner.auth })).json().invitations.length, 1)
})

t.test("a removal or an edit in one process applies to the member's next request in another", async (t) => {
  const one = await build(t)
  const two = await buildApp({ config: testConfig({ JWT_SECRET: one.config.jwtSecret }, one.config.databaseUrl), database: one.database })
  t.teardown(async () => { await two.close() })
  const owner = await registerUser(one, 'MERCHANT')
  const member = await addMember(one, owner, ['orders', 'products'])
  t.equal((await two.inject({ url: '/merchant/products', headers: member.auth })).statusCode, 200, 'process two knows the member')
  t.equal((await one.inject({ method: 'PATCH', url: `/merchant/staff/${member.memberId}`, headers: owner.auth, payload: { permissions: ['orders'] } })).statusCode, 200)
  const edited = await until(async () => (await two.inject({ url: '/merchant/products', headers: member.auth })).statusCode, (status) => status === 403)
  t.equal(edited, 403, 'process two applies the edit')
  t.equal((await one.inject({ method: 'DELETE', url: `/merchant/staff/${member.memberId}`, headers: owner.auth })).statusCode, 204)
  const removed = await until(async () => (await two.inject({ url: '/merchant/orders', headers: member.auth })).statusCode, (status) => status === 401)
  t.equal(removed, 401, 'process two ends the session')
})
