import t from 'tap'
import type { Page } from 'playwright-core'
import { build, createApp, listen, oauthInstall, publishApp, registerUser, uniqueEmail, REVIEWER_ENV, type Session } from '../helper.ts'
import { fitsWidth, hostileServer, launch, logIn, screenshot, seriousAxeViolations } from './browser.ts'
import { verifySessionToken } from '../../sdk/src/index.ts'

// The app's admin page: shows what the admin panel told it (service:init), from the expected parent only.
const ADMIN_PAGE = (platformOrigin: string) => `<!doctype html><html><body><h2>Team report</h2><pre id="init">waiting</pre>
<script>
window.addEventListener('message', (event) => {
  if (event.origin !== ${JSON.stringify(platformOrigin)} || event.source !== window.parent) return
  if (event.data.type === 'service:init') document.getElementById('init').textContent = JSON.stringify(event.data)
})
</script></body></html>`

/** The admin sidebar's links, in order, once it shows `expected` (its permissions decide the list). */
async function navLinks (page: Page, expected: string): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Admin' })
  await nav.getByRole('link', { name: expected, exact: true }).waitFor()
  // an app page's link starts with its icon's initial, on a line of its own
  return (await nav.getByRole('link').allInnerTexts()).map((text) => text.trim().split('\n').at(-1)?.trim() ?? '')
}

/** Signs `email` in through the login screen, from a fresh page at `path`. */
async function signInAt (page: Page, base: string, path: string, email: string): Promise<void> {
  await page.goto(`${base}${path}`)
  await page.waitForURL(/\/login/)
  await logIn(page, email, 'correct-horse')
}

t.test('staff screens in Chromium: invite, join, permissions, removal, two businesses, an app page sees STAFF', async (t) => {
  const app = await build(t, { env: REVIEWER_ENV })
  const base = await listen(app)
  const appOrigin = await hostileServer(t, (url) => url.pathname === '/admin/team' ? { type: 'text/html', body: ADMIN_PAGE(base) } : null)

  // an app with an admin page, installed on the owner's business
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created, clientSecret } = await createApp(app, developer, { name: 'Team Insights', scopes: ['read_business'] })
  const manifest = { adminPages: [{ pageId: 'team', title: 'Team report', renderUrl: `${appOrigin}/admin/team` }] }
  t.equal((await app.inject({ method: 'PUT', url: `/developer/apps/${created.id}/manifest`, headers: developer.auth, payload: { manifest } })).statusCode, 200)
  await publishApp(app, developer, created.id)
  const owner: Session = await registerUser(app, 'MERCHANT', { businessName: 'Olive Grocers', name: 'Olga Owner' })
  const installed = await oauthInstall(app, owner, { clientId: created.clientId, clientSecret, redirectUrl: created.redirectUrl })

  const browser = await launch(t)
  const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  const memberContext = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  t.teardown(async () => { await ownerContext.close(); await memberContext.close() })
  const ownerPage = await ownerContext.newPage()
  const memberPage = await memberContext.newPage()
  for (const page of [ownerPage, memberPage]) page.on('dialog', (dialog) => { t.fail(`a native dialog opened: ${dialog.message()}`); void dialog.dismiss() })

  const newcomer = { email: uniqueEmail('staff'), name: 'Sam Staff' }
  let link = ''

  await t.test('the owner invites by email: field errors inline, the link shown with a copy button, pending with withdraw', async (t) => {
    await signInAt(ownerPage, base, '/admin/staff', owner.email)
    await ownerPage.getByRole('heading', { name: 'Staff', level: 1 }).waitFor()
    const people = ownerPage.getByTestId('members')
    await people.waitFor()
    t.match(await people.innerText(), /Olga Owner[\s\S]*Owner[\s\S]*Permissions: All/, 'the owner is listed with all permissions')
    await ownerPage.getByText('No invitation is waiting.').waitFor()

    const form = ownerPage.locator('form').filter({ has: ownerPage.getByRole('group', { name: 'Permissions' }) })
    await form.getByRole('button', { name: 'Send invitation' }).click()
    await form.getByText('Enter the email address of the person to invite.').waitFor()
    t.equal(await form.getByLabel('Email').getAttribute('aria-invalid'), 'true', 'the email field is marked')
    t.ok(await form.getByLabel('Email').evaluate((input) => input === document.activeElement), 'focus goes to the email field')

    await form.getByLabel('Email').fill(newcomer.email)
    await form.getByRole('button', { name: 'Send invitation' }).click()
    await form.getByText('Choose at least one permission.').waitFor()
    const permissions = form.getByRole('group', { name: 'Permissions' })
    await permissions.getByLabel('Orders').check()
    await permissions.getByLabel('Apps').check()
    await form.getByRole('button', { name: 'Send invitation' }).click()
    const sent = ownerPage.getByRole('status').filter({ hasText: 'Invitation ready for' })
    await sent.waitFor()
    t.match(await sent.innerText(), /No email was sent: copy the link/, 'no SMTP: the owner hands the link on')
    link = (await sent.getByTestId('invitation-link').innerText()).trim()
    t.match(new URL(link).pathname, /^\/invite\/[^/]+$/, 'the link is {admin_url}/invite/<token>')
    t.equal(new URL(link).origin, base, 'on the admin origin the process listens on')
    await sent.getByRole('button', { name: 'Copy link' }).waitFor()

    const pending = ownerPage.getByTestId(`invitation-${newcomer.email}`)
    await pending.waitFor()
    t.match(await pending.innerText(), /Permissions: Orders, Apps/)
    t.equal((await pending.getByTestId('invitation-link').innerText()).trim(), link, 'the pending invitation shows the same link')
    t.same(await seriousAxeViolations(ownerPage), [], 'staff screen: no serious axe violation')
    await screenshot(ownerPage, 'staff-invited-1280')

    // the same email again: the API's refusal under the email field
    await form.getByLabel('Email').fill(newcomer.email)
    await permissions.getByLabel('Orders').check()
    await form.getByRole('button', { name: 'Send invitation' }).click()
    await form.locator('#invite-email-error').waitFor()
    t.equal(await form.getByLabel('Email').getAttribute('aria-invalid'), 'true', 'a pending invitation is refused on the email field')
    await form.getByLabel('Email').fill('')

    await ownerPage.setViewportSize({ width: 390, height: 844 })
    t.ok(await fitsWidth(ownerPage), '390 px: the staff screen fits')
    await screenshot(ownerPage, 'staff-invited-390')
    await ownerPage.setViewportSize({ width: 1280, height: 900 })
  })

  await t.test('a new person opens the link, signs up and joins; the nav shows only what they may use', async (t) => {
    await memberPage.goto(link)
    await memberPage.getByRole('heading', { name: 'Join Olive Grocers' }).waitFor()
    const facts = await memberPage.getByTestId('invitation').innerText()
    t.match(facts, newcomer.email)
    t.match(facts, /Orders, Apps/)
    t.same(await seriousAxeViolations(memberPage), [], 'invitation screen: no serious axe violation')
    await screenshot(memberPage, 'invite-1280')
    await memberPage.setViewportSize({ width: 390, height: 844 })
    t.ok(await fitsWidth(memberPage), '390 px: the invitation screen fits')
    await screenshot(memberPage, 'invite-390')
    await memberPage.setViewportSize({ width: 1280, height: 900 })

    const signUp = memberPage.getByRole('form', { name: 'New here? Create your account' })
    t.equal(await signUp.getByLabel('Email').inputValue(), newcomer.email, 'the account is made for the invited email')
    await signUp.getByLabel('Name').fill(newcomer.name)
    await signUp.getByLabel(/Password/).fill('correct-horse')
    await signUp.getByRole('button', { name: 'Create account and join' }).click()
    await memberPage.waitForURL(`${base}/admin`)
    t.same(await navLinks(memberPage, 'Team report'), ['Home', 'Orders', 'Installed apps', 'Activity', 'View store ↗', 'Team report'],
      'only Orders and Apps, and the app\'s page')
    await screenshot(memberPage, 'staff-member-home-1280')

    // the link is single-use
    await memberPage.goto(`${base}${new URL(link).pathname}`)
    await memberPage.getByRole('heading', { name: 'This invitation link no longer works' }).waitFor()
    await screenshot(memberPage, 'invite-used-1280')
  })

  await t.test('a screen without the permission says so instead of an error', async (t) => {
    await memberPage.goto(`${base}/admin/products`)
    const state = memberPage.getByTestId('no-access')
    await state.waitFor()
    t.match(await state.innerText(), /You do not have access to Products[\s\S]*Ask the owner/)
    t.equal(await memberPage.getByRole('alert').count(), 0, 'no raw API error')
    t.same(await seriousAxeViolations(memberPage), [], 'no-access state: no serious axe violation')
    await screenshot(memberPage, 'staff-no-access-1280')
    await memberPage.goto(`${base}/admin/staff`)
    await memberPage.getByRole('heading', { name: 'You do not have access to Settings' }).waitFor()
    await memberPage.setViewportSize({ width: 390, height: 844 })
    t.ok(await fitsWidth(memberPage), '390 px: the no-access state fits')
    await screenshot(memberPage, 'staff-no-access-390')
    await memberPage.setViewportSize({ width: 1280, height: 900 })
  })

  await t.test('an installed app\'s admin page receives service:init with role STAFF', async (t) => {
    await memberPage.goto(`${base}/admin`)
    await memberPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Team report' }).click()
    const init = memberPage.frameLocator('iframe[title="Team report"]').locator('#init')
    await init.filter({ hasNotText: 'waiting' }).waitFor()
    const { sessionToken, ...message } = JSON.parse(await init.innerText())
    t.match(message, { type: 'service:init', businessId: owner.businessId, businessName: 'Olive Grocers', role: 'STAFF' })
    const verified = verifySessionToken(sessionToken, { secret: installed.webhookSecret, clientId: created.clientId, issuer: base })
    const claims = verified as unknown as Record<string, unknown>
    t.match(claims, { businessId: owner.businessId, role: 'STAFF' }, 'the session token names the role')
    t.same([...(claims.permissions as string[])].sort(), ['apps', 'orders'], 'and the member\'s permissions')
  })

  await t.test('the owner edits the member\'s permissions; the member\'s admin follows', async (t) => {
    await ownerPage.goto(`${base}/admin/staff`)
    const item = ownerPage.getByTestId(`member-${newcomer.email}`)
    await item.waitFor()
    t.match(await item.innerText(), /Sam Staff[\s\S]*Staff[\s\S]*Permissions: Orders, Apps/)
    await item.getByRole('button', { name: 'Edit permissions of Sam Staff' }).click()
    const group = item.getByRole('group', { name: 'Permissions of Sam Staff' })
    await group.getByLabel('Products').check()
    await group.getByLabel('Apps').uncheck()
    await screenshot(ownerPage, 'staff-edit-1280')
    await item.getByRole('button', { name: 'Save permissions' }).click()
    await ownerPage.getByText('Permissions of Sam Staff saved').waitFor()
    await item.getByText('Permissions: Orders, Products').waitFor()

    // the member, still on the app's page: the next screen reads the new permissions
    await memberPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Installed apps' }).click()
    await memberPage.getByRole('heading', { name: 'You do not have access to Apps' }).waitFor()
    t.same(await navLinks(memberPage, 'Products'), ['Home', 'Orders', 'Products', 'Activity', 'View store ↗'], 'Products appears, Apps and its page leave')
  })

  await t.test('the owner removes the member (confirm step, keyboard); the member\'s next action sends them to sign in', async (t) => {
    const item = ownerPage.getByTestId(`member-${newcomer.email}`)
    const remove = item.getByRole('button', { name: 'Remove Sam Staff' })
    await remove.focus()
    await ownerPage.keyboard.press('Enter')
    const confirm = ownerPage.getByRole('alertdialog', { name: 'Remove Sam Staff?' })
    await confirm.waitFor()
    t.match(await confirm.innerText(), /loses access to this business at once/)
    t.same(await seriousAxeViolations(ownerPage), [], 'the confirm step: no serious axe violation')
    await screenshot(ownerPage, 'staff-remove-confirm-1280')
    await ownerPage.keyboard.press('Shift+Tab')
    await ownerPage.keyboard.press('Enter')
    await ownerPage.getByText('Sam Staff was removed').waitFor()
    await item.waitFor({ state: 'detached' })

    await memberPage.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Orders' }).click()
    await memberPage.waitForURL(/\/login\?next=/)
    await memberPage.getByTestId('session-expired').waitFor()
    t.pass('the removed member is sent to sign in')
  })

  await t.test('a user of two businesses switches between them', async (t) => {
    const other = await registerUser(app, 'MERCHANT', { businessName: 'Pine Bakery' })
    const invited = await app.inject({ method: 'POST', url: '/merchant/staff', headers: other.auth, payload: { email: owner.email, permissions: ['products'] } })
    t.equal(invited.statusCode, 201)
    const token = new URL(invited.json().invitation.link).pathname.split('/').at(-1) as string
    t.equal((await app.inject({ method: 'POST', url: `/auth/invitations/${token}/accept`, headers: owner.auth })).statusCode, 200)

    await ownerPage.goto(`${base}/admin`)
    const switcher = ownerPage.getByTestId('business-switcher')
    await switcher.waitFor()
    t.same(await switcher.getByLabel('Business').locator('option').allInnerTexts(), ['Olive Grocers', 'Pine Bakery (staff)'])
    t.same(await seriousAxeViolations(ownerPage), [], 'the switcher: no serious axe violation')
    await screenshot(ownerPage, 'staff-switcher-1280')
    await switcher.getByLabel('Business').selectOption({ label: 'Pine Bakery (staff)' })
    await switcher.getByRole('button', { name: 'Switch' }).click()
    await ownerPage.getByRole('heading', { name: 'Pine Bakery', level: 1 }).waitFor()
    t.same(await navLinks(ownerPage, 'Products'), ['Home', 'Products', 'Activity', 'View store ↗'], 'on Pine Bakery only Products')
    await ownerPage.setViewportSize({ width: 390, height: 844 })
    t.ok(await fitsWidth(ownerPage), '390 px: the switcher fits')
    await screenshot(ownerPage, 'staff-switcher-390')
    await switcher.getByLabel('Business').selectOption({ label: 'Olive Grocers' })
    await switcher.getByRole('button', { name: 'Switch' }).click()
    await ownerPage.getByRole('heading', { name: 'Olive Grocers', level: 1 }).waitFor()
    t.pass('and back')
  })
})
