import t from 'tap'
import { build, createApp, registerUser } from '../../helper.ts'

/** What the issue reproduced as 500s ("Failed to serialize an error"): each now answers in RFC 6749 form. */
t.test('POST /oauth/token and /oauth/revoke answer every malformed request in RFC 6749 form', async (t) => {
  const app = await build(t)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, developer)
  const client = { authorization: `Basic ${Buffer.from(`${created.clientId}:${clientSecret}`).toString('base64')}` }
  const cases: Array<[string, Record<string, string>, string, number]> = [
    ['a malformed Basic header', { authorization: 'Basic %%%', 'content-type': 'application/json' }, '{}', 401],
    ['Basic without a colon', { authorization: `Basic ${Buffer.from('abc').toString('base64')}`, 'content-type': 'application/json' }, '{}', 401],
    ['code as an array', { ...client, 'content-type': 'application/json' }, '{"grant_type":"authorization_code","code":["x"],"redirect_uri":"https://a.example"}', 400],
    ['a repeated form field', { ...client, 'content-type': 'application/x-www-form-urlencoded' }, 'grant_type=authorization_code&code=a&code=b&redirect_uri=x', 400],
    ['invalid JSON', { ...client, 'content-type': 'application/json' }, '{bad', 400],
    ['an empty JSON body', { ...client, 'content-type': 'application/json' }, '', 400],
    ['a text/plain body', { ...client, 'content-type': 'text/plain' }, 'hello', 400],
    ['an XML body', { ...client, 'content-type': 'application/xml' }, '<a/>', 400],
    ['a NUL in the code', { ...client, 'content-type': 'application/json' }, '{"grant_type":"authorization_code","code":"a\\u0000","redirect_uri":"https://a.example"}', 400],
    ['deep nesting', { ...client, 'content-type': 'application/json' }, `${'['.repeat(5000)}${']'.repeat(5000)}`, 400]
  ]
  for (const url of ['/oauth/token', '/oauth/revoke']) {
    for (const [label, headers, payload, status] of cases) {
      const response = await app.inject({ method: 'POST', url, headers, payload })
      t.equal(response.statusCode, status, `${url}: ${label}`)
      t.match(response.json(), { error: status === 401 ? 'invalid_client' : 'invalid_request', error_description: String, statusCode: status, message: String }, `${url}: ${label}: RFC shape`)
    }
  }
})
