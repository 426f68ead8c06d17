import type { App } from '../server/app.ts'
import { createBusiness } from '../plugins/commerce/businesses.ts'
import { seedSampleCommerce } from '../plugins/commerce/sample-data.ts'
import { portsOf } from '../server/app.ts'

const BATCH = 100

async function inject (app: App, method: 'POST', url: string, payload: object, headers: Record<string, string> = {}) {
  const response = await app.inject({ method, url, payload, headers })
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`)
  return response.json()
}

/**
 * One developer and one app with read_products, installed on `count` merchant businesses that each
 * get the sample catalogue: the businesses and installations go through the commerce and
 * installations services, a hundred per transaction. Returns the access tokens.
 */
export async function seedInstallations (app: App, count: number): Promise<string[]> {
  const developer = await inject(app, 'POST', '/auth/register', { email: `bench-${process.pid}@example.com`, password: 'bench-password', name: 'Bench', role: 'DEVELOPER' })
  const auth = { authorization: `Bearer ${developer.token}` }
  const { app: created } = await inject(app, 'POST', '/developer/apps', {
    name: 'Bench App', slug: `bench-app-${process.pid}`, description: 'Reads the catalogue.', category: 'analytics',
    scopes: ['read_products', 'read_orders'], redirectUrl: 'https://bench.example.com/callback', webhookUrl: 'https://bench.example.com/webhooks'
  }, auth)
  const userId = developer.user.id as string
  const tokens: string[] = []
  for (let start = 0; start < count; start += BATCH) {
    const issued = await app.db.transaction(async (tx) => {
      const appRow = await portsOf(app).apps.in(tx).ownedApp(userId, created.id)
      const batch: string[] = []
      for (let i = start; i < Math.min(start + BATCH, count); i++) {
        const business = await createBusiness(tx, { name: `Bench Shop ${i}`, ownerId: userId, email: `shop-${i}@example.com`, isSandbox: false })
        await seedSampleCommerce(tx, business.id, app.clock.now())
        const { accessToken } = await portsOf(app).installations.in(tx).install({ app: appRow, businessId: business.id, scopes: ['read_products', 'read_orders'], userId, isTestInstall: false })
        batch.push(accessToken)
      }
      return batch
    })
    tokens.push(...issued)
  }
  return tokens
}
