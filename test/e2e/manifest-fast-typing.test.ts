import t from 'tap'
import { build, createApp, listen, registerUser } from '../helper.ts'
import { launch, screenshot } from './browser.ts'

/**
 * #42 item 4: the manifest editor lost unsaved edits when its tab had to be reloaded, and each transiently
 * broken document logged "parsed json with extra tokens" (25 in one edit). The draft is kept in session storage.
 */
t.test('the manifest editor keeps a draft across a reload and logs nothing on half-typed JSON', async (t) => {
  const app = await build(t)
  const base = await listen(app)
  const developer = await registerUser(app, 'DEVELOPER')
  const { app: created } = await createApp(app, developer, { name: 'Booster', redirectUrl: 'https://booster.example.com/oauth/callback', webhookUrl: 'https://booster.example.com/webhooks' })
  const login = (await app.inject({ method: 'POST', url: '/auth/login', payload: { email: developer.email, password: 'correct-horse' } })).json()

  const browser = await launch(t)
  for (const width of [1280, 390]) {
    await t.test(`at ${width} px`, async (t) => {
      const context = await browser.newContext({ viewport: { width, height: 900 } })
      t.teardown(() => context.close())
      await context.addInitScript((value) => { localStorage.setItem('app-platform.session', value) }, JSON.stringify({ token: login.token, user: login.user }))
      const page = await context.newPage()
      const problems: string[] = []
      page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()) })
      await page.goto(`${base}/portal/apps/${created.id}/settings`)
      await page.getByRole('tab', { name: 'Manifest' }).click()
      await page.locator('[data-testid="manifest-editor"][data-state="ready"]').waitFor()
      const editor = page.getByRole('textbox', { name: 'Manifest JSON' })

      // a half-typed document (a key begun after a value, before its comma), checked by both lints
      await editor.fill('{"blocks": [{"blockType": "quick"}] "x"}')
      await page.locator('.cm-lint-marker-error').first().waitFor()

      await page.reload()
      await page.getByRole('tab', { name: 'Manifest' }).click()
      await page.locator('[data-testid="manifest-editor"][data-state="ready"]').waitFor()
      t.match((await editor.innerText()).replace(/\s+/g, ''), /"blockType":"quick"/, 'a reload brings the unsaved draft back')
      t.match(await page.getByTestId('manifest-draft').innerText(), /unsaved draft/i, 'and says it is a draft')
      await screenshot(page, `manifest-draft-${width}`)
      await page.getByRole('button', { name: 'Discard draft' }).click()
      t.notMatch((await editor.innerText()).replace(/\s+/g, ''), /"blockType":"quick"/, 'Discard draft goes back to the saved manifest')
      t.equal(await page.getByTestId('manifest-draft').count(), 0, 'and the draft notice goes')
      t.same(problems, [], 'no console error or warning on half-typed JSON (no "parsed json with extra tokens")')
    })
  }
})
