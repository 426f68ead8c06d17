import { portsOf, type App } from './app.ts'

export const DEMO_PASSWORD = 'demo-password'
export const DEMO_ACCOUNTS = {
  reviewer: 'reviewer@demo.test',
  developer: 'developer@demo.test',
  merchant: 'merchant@demo.test'
} as const

export interface DemoLogin { role: string, email: string, password: string }

/** On a database with no users: a reviewer, a developer (with sandbox) and a merchant with a stocked business. */
export async function seedDemo (app: App): Promise<DemoLogin[] | null> {
  const { auth, commerce } = portsOf(app)
  if (await auth.hasUsers()) return null
  const logins: DemoLogin[] = []
  if (app.config.reviewer === null) {
    await auth.ensureUser({ email: DEMO_ACCOUNTS.reviewer, password: DEMO_PASSWORD, name: 'Demo Reviewer', role: 'REVIEWER' })
    logins.push({ role: 'reviewer', email: DEMO_ACCOUNTS.reviewer, password: DEMO_PASSWORD })
  } else {
    logins.push({ role: 'reviewer', email: app.config.reviewer.email, password: '(REVIEWER_PASSWORD)' })
  }
  // the demo's printed logins are the platform's own (DEMO_SEED=false turns them off): the password policy is for people's choices
  await auth.register({ email: DEMO_ACCOUNTS.developer, password: DEMO_PASSWORD, name: 'Demo Developer', role: 'DEVELOPER' }, { demoLogin: true })
  logins.push({ role: 'developer', email: DEMO_ACCOUNTS.developer, password: DEMO_PASSWORD })
  const merchant = await auth.register({ email: DEMO_ACCOUNTS.merchant, password: DEMO_PASSWORD, name: 'Demo Merchant', role: 'MERCHANT', businessName: 'Demo Pizzeria' }, { demoLogin: true })
  await app.db.transaction(async (tx) => { await commerce.in(tx).seedSample(merchant.businessId as string, app.clock.now()) })
  logins.push({ role: 'merchant', email: DEMO_ACCOUNTS.merchant, password: DEMO_PASSWORD })
  return logins
}

/**
 * The line a production start refuses with while a demo account (published password) exists
 * (DESIGN §20), or null when none does or ALLOW_DEMO_ACCOUNTS=true.
 */
export async function demoAccountRefusal (app: App): Promise<string | null> {
  const { auth } = portsOf(app)
  if (!app.config.production || app.config.allowDemoAccounts) return null
  const present: string[] = []
  for (const email of Object.values(DEMO_ACCOUNTS)) if (await auth.findByEmail(email) !== null) present.push(email)
  if (present.length === 0) return null
  return `Refusing to start in production: demo account${present.length > 1 ? 's' : ''} ${present.join(', ')} (published password) exist; delete them or set ALLOW_DEMO_ACCOUNTS=true`
}

/** The demo logins, when they still work (the demo was seeded and nobody changed the passwords). */
export async function demoLogins (app: App): Promise<{ logins: DemoLogin[], storeUrl: string } | null> {
  const login = await app.inject({ method: 'POST', url: '/auth/login', payload: { email: DEMO_ACCOUNTS.merchant, password: DEMO_PASSWORD } })
  if (login.statusCode !== 200) return null
  const business = await app.inject({ method: 'GET', url: '/merchant/business', headers: { authorization: `Bearer ${login.json().token as string}` } })
  const reviewer = app.config.reviewer === null
    ? { role: 'reviewer', email: DEMO_ACCOUNTS.reviewer, password: DEMO_PASSWORD }
    : { role: 'reviewer', email: app.config.reviewer.email, password: '(REVIEWER_PASSWORD)' }
  return {
    logins: [
      { role: 'merchant', email: DEMO_ACCOUNTS.merchant, password: DEMO_PASSWORD },
      { role: 'developer', email: DEMO_ACCOUNTS.developer, password: DEMO_PASSWORD },
      reviewer
    ],
    storeUrl: business.json().storefrontUrl as string
  }
}
