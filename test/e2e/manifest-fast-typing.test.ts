import t, { type Test } from 'tap'
import type { Locator, Page } from 'playwright-core'
import { within } from '../helper.ts'
import { launch, screenshot } from './browser.ts'
import { developerContext, developerWithApp, manifestEditorOnTab, openManifestEditor } from './portal-helper.ts'

/** Milliseconds between keys: quicker than a frame, as a quick typist's keys come. */
const KEY_DELAY_MS = 10

/**
 * Runs a step of typing and checks the page still answers: a freeze detector, not a wait for time. A frozen
 * renderer never takes the next key (Playwright's keyboard waits for that), so the step itself is bounded too,
 * far beyond what it takes on a loaded machine.
 */
async function stillResponsive (page: Page, what: string, step: () => Promise<unknown>): Promise<void> {
  await within(step(), 15_000, `the page froze while ${what}`)
  await within(page.evaluate(() => true), 5000, `the page froze after ${what}`)
}

/** The editor's text (a short document: every line is drawn). */
const editorText = async (editor: Locator) => await editor.innerText()

/** What the page holds as the draft, the text the editor last reported. */
const draftText = async (page: Page, appId: string) => await page.evaluate((key) => sessionStorage.getItem(key), `app-platform.draft.manifest.${appId}`)

/** A short document with the cursor between its braces. */
async function startFrom (editor: Locator): Promise<void> {
  await editor.fill('{}')
  await editor.press('End')
  await editor.press('ArrowLeft')
}

/**
 * #42 item 4: typing quickly in the manifest editor froze the tab for good (`"x` at 30 ms a key, 3 times of 3):
 * the page's stale text and the editor's swapped back and forth without end. Then: the editor lost unsaved
 * edits on a reload, and each half-typed document logged "parsed json with extra tokens".
 */
const setup = await developerWithApp(t)
const browser = await launch(t)

/** The developer's manifest editor at `width` px, with the page's console errors and warnings collected. */
async function editorAt (t: Test, width: number): Promise<{ page: Page, editor: Locator, problems: string[] }> {
  const context = await developerContext(t, browser, setup, { width, height: 900 })
  const page = await context.newPage()
  const problems: string[] = []
  page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') problems.push(m.text()) })
  return { page, editor: await openManifestEditor(page, setup), problems }
}

t.test('the manifest editor keeps up with quick typing', async (t) => {
  for (const width of [1280, 390]) {
    await t.test(`at ${width} px`, async (t) => {
      const { page, editor, problems } = await editorAt(t, width)

      // closeBrackets closes a quote and a bracket as they are opened and steps over the closing one when typed
      await startFrom(editor)
      await stillResponsive(page, 'typing "x', () => page.keyboard.type('"x', { delay: KEY_DELAY_MS }))
      t.equal(await editorText(editor), '{"x"}', '"x typed quickly: the page answers and the editor holds it')

      await startFrom(editor)
      await stillResponsive(page, 'typing ", pausing, pressing Ctrl+Space', async () => {
        await page.keyboard.type('"', { delay: KEY_DELAY_MS })
        // the pause: long enough for the lints (800 ms) to mark the half-typed key
        await page.locator('.cm-lint-marker-error').first().waitFor()
        await page.keyboard.press('Control+Space')
        await page.locator('.cm-tooltip-autocomplete').waitFor()
        await page.keyboard.type('x', { delay: KEY_DELAY_MS })
        await page.keyboard.press('Escape')
      })
      t.equal(await editorText(editor), '{"x"}', '", a pause, Ctrl+Space, x: the completion list came, the text is what was typed')

      await startFrom(editor)
      await stillResponsive(page, 'typing a key and its value', () => page.keyboard.type('"blocks": [], "adminPages": [{"x', { delay: KEY_DELAY_MS }))
      const typed = '{"blocks": [], "adminPages": [{"x"}]}'
      t.equal(await editorText(editor), typed, 'a longer run typed quickly: every key is there, in order')
      t.equal(await draftText(page, setup.appId), typed, 'and the page holds the same text as its draft')

      await page.reload()
      t.equal(await editorText(await manifestEditorOnTab(page)), typed, 'a reload brings the quickly typed draft back')
      t.match(await page.getByTestId('manifest-draft').innerText(), /unsaved draft/i, 'and says it is a draft')
      await screenshot(page, `manifest-fast-typing-${width}`)
      t.same(problems, [], 'no console error or warning')
    })
  }
})

t.test('the manifest editor keeps a draft across a reload and logs nothing on half-typed JSON', async (t) => {
  for (const width of [1280, 390]) {
    await t.test(`at ${width} px`, async (t) => {
      const { page, editor, problems } = await editorAt(t, width)

      // a half-typed document (a key begun after a value, before its comma), checked by both lints
      await editor.fill('{"blocks": [{"blockType": "quick"}] "x"}')
      await page.locator('.cm-lint-marker-error').first().waitFor()

      await page.reload()
      await manifestEditorOnTab(page)
      t.match((await editor.innerText()).replace(/\s+/g, ''), /"blockType":"quick"/, 'a reload brings the unsaved draft back')
      t.match(await page.getByTestId('manifest-draft').innerText(), /unsaved draft/i, 'and says it is a draft')
      await screenshot(page, `manifest-draft-${width}`)
      await page.getByRole('button', { name: 'Discard draft' }).click()
      t.notMatch((await editor.innerText()).replace(/\s+/g, ''), /"blockType":"quick"/, 'Discard draft goes back to the saved manifest')
      t.equal(await page.getByTestId('manifest-draft').count(), 0, 'and the draft notice goes')
      t.equal(await draftText(page, setup.appId), null, 'and forgets the draft')
      t.same(problems, [], 'no console error or warning on half-typed JSON (no "parsed json with extra tokens")')
    })
  }
})
