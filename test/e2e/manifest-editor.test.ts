import t from 'tap'
import { launch, screenshot } from './browser.ts'
import { developerContext, developerWithApp } from './portal-helper.ts'

/**
 * #29 item 8: the manifest tab's editor is CodeMirror with the published manifest schema (completion,
 * inline errors), a new app starts from the template, the reference is linked, hook paths are explained,
 * the keyboard can leave it, and no other page downloads it.
 */
t.test('the manifest editor: template, schema completion, inline errors, keyboard, loaded only where used', async (t) => {
  const setup = await developerWithApp(t)
  const browser = await launch(t)
  const context = await developerContext(t, browser, setup, { width: 1100, height: 900 })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()) })
  const editorChunks: string[] = []
  page.on('request', (request) => { if (/\/assets\/codemirror-[^/]+\.js$/.test(request.url())) editorChunks.push(request.url()) })

  await page.goto(`${setup.base}/portal/apps/${setup.appId}/settings`)
  await page.getByRole('tab', { name: 'Manifest' }).waitFor()
  t.same(editorChunks, [], 'another tab does not download the editor')

  await page.getByRole('tab', { name: 'Manifest' }).click()
  const editor = page.getByRole('textbox', { name: 'Manifest JSON' })
  await page.locator('[data-testid="manifest-editor"][data-state="ready"]').waitFor()
  t.equal(editorChunks.length, 1, 'the manifest tab loads the editor chunk')
  t.equal(await editor.getAttribute('contenteditable'), 'true', 'a CodeMirror editor, not a textarea')
  t.match(await page.getByRole('status').innerText(), /starting template/, 'a new app is told it starts from the template')
  t.match(await editor.innerText(), /"blockType": "hero"/, 'it starts with a block')
  t.match(await editor.innerText(), /https:\/\/booster\.example\.com\/blocks\/hero/, 'on the app\'s own origin')
  t.equal(await page.getByRole('link', { name: 'manifest reference' }).getAttribute('href'), '/docs#/manifest/putManifest')
  t.match(await page.locator('#manifest-help').innerText(), /path under the app's Webhook URL \(\/rates is called as https:\/\/booster\.example\.com\/webhooks\/rates\)/)
  await screenshot(page, 'manifest-editor-template')
  await page.getByRole('button', { name: 'Preview changes' }).click()
  await page.getByTestId('manifest-result').waitFor()
  t.match(await page.getByTestId('manifest-result').innerText(), /Created \(3\)[\s\S]*hero[\s\S]*chat[\s\S]*overview/, 'the template is a valid manifest: a block, an embed and an admin page')

  await t.test('completion lists the keys the schema allows where the cursor is', async (t) => {
    await editor.fill('{"adminPages": [{}]}')
    await editor.press('End')
    for (let i = 0; i < 3; i++) await editor.press('ArrowLeft')
    await editor.press('"')
    await editor.press('Control+Space')
    const list = page.locator('.cm-tooltip-autocomplete')
    await list.waitFor()
    const options = await list.locator('li').allInnerTexts()
    t.ok(['pageId', 'title', 'renderUrl', 'iconName'].every((key) => options.some((o) => o.includes(key))), `an admin page's keys: ${options.join(', ')}`)
    await screenshot(page, 'manifest-editor-completion')
    await editor.press('Escape')
  })

  await t.test('a value the schema refuses is marked as you type', async (t) => {
    await editor.fill(JSON.stringify({ embeds: [{ embedType: 'chat', name: 'Chat', kind: 'SIDEBAR', position: 'bottom_right', renderUrl: 'https://booster.example.com/w' }] }, null, 2))
    await page.locator('.cm-lintRange-error').first().waitFor()
    await page.locator('.cm-lint-marker-error').first().waitFor()
    t.pass('the wrong kind is underlined, with a marker in the gutter')
    await screenshot(page, 'manifest-editor-error')
    await editor.fill('{ "blocks": [ }')
    await page.locator('.cm-lint-marker-error').first().waitFor()
    t.pass('so is broken JSON')
  })

  await t.test('Tab indents; Esc then Tab leaves the editor', async (t) => {
    await editor.fill('{}')
    await editor.press('End')
    await editor.press('Tab')
    t.ok(await editor.evaluate((el) => (el.getRootNode() as ShadowRoot).activeElement === el), 'still in the editor after Tab')
    t.match(await editor.innerText(), /^\s+\{\}/, 'Tab indented')
    await editor.press('Escape')
    await page.keyboard.press('Tab')
    t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Preview changes', 'Esc, Tab: on to the next control')
  })

  await t.test('the edited text is what Preview sends', async (t) => {
    await editor.fill(JSON.stringify({ adminPages: [{ pageId: 'overview', title: 'Overview', renderUrl: 'https://booster.example.com/admin' }] }))
    await page.getByRole('button', { name: 'Preview changes' }).click()
    await page.getByTestId('manifest-result').waitFor()
    t.match(await page.getByTestId('manifest-result').innerText(), /Created \(1\)[\s\S]*overview/)
  })

  await page.setViewportSize({ width: 390, height: 900 })
  t.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'fits 390 px')
  await screenshot(page, 'manifest-editor-390')
  t.same(problems, [], 'no console error or warning (the editor\'s styles pass the admin\'s CSP)')
})
