import t from 'tap'
import { build } from '../helper.ts'

t.test('/docs (Swagger UI) has a CSP and cannot be framed', async (t) => {
  const app = await build(t)
  for (const url of ['/docs', '/docs/', '/docs/static/index.html', '/docs/static/swagger-initializer.js']) {
    const response = await app.inject({ url })
    if (response.statusCode >= 300 && response.statusCode < 400) continue
    t.equal(response.statusCode, 200, url)
    const csp = String(response.headers['content-security-policy'] ?? '')
    t.match(csp, /default-src 'self'/, `${url}: a CSP`)
    t.match(csp, /frame-ancestors 'none'/, `${url}: frame-ancestors 'none'`)
    t.match(csp, /script-src 'self'/, `${url}: scripts from the origin only`)
  }
})
