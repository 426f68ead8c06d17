import t from 'tap'
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DOCUMENTS = ['README.md', 'docs/architecture.md', 'docs/decisions.md', 'docs/build-your-first-app.md', 'sdk/README.md', 'examples/reference-app/README.md']

/** The relative targets of a Markdown document's links, without their #fragment. */
function relativeLinks (markdown: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1])
  return links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link) && !link.startsWith('#')).map((link) => link.split('#')[0])
}

t.test('every relative link of the docs points at a file of the repository', async (t) => {
  for (const document of DOCUMENTS) {
    const text = readFileSync(join(ROOT, document), 'utf8')
    for (const link of relativeLinks(text)) {
      t.ok(existsSync(join(ROOT, dirname(document), link)), `${document} → ${link}`)
    }
    t.notMatch(text, /\.\.\/shared\//, `${document} names no file outside the repository`)
  }
})

t.test('the link reader finds relative links and leaves the others', async (t) => {
  t.same(relativeLinks('[a](docs/x.md#part) [b](https://example.com) [c](#top) [d](mailto:x@example.com) [e](../y.md)'), ['docs/x.md', '../y.md'])
})
