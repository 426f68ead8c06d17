import t from 'tap'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DOCUMENTS = [
  'README.md', 'docs/architecture.md', 'docs/benchmarks.md', 'docs/build-your-first-app.md', 'docs/capabilities.md', 'docs/decisions.md',
  'docs/operations.md', 'docs/testing.md', 'sdk/README.md', 'examples/reference-app/README.md'
]
/** The README is the map, not the manual (#43 item 2): what is longer belongs in docs/. */
const README_MAX_LINES = 350

/** The relative targets of a Markdown document's links, with their #fragment when they have one. */
function relativeLinks (markdown: string): string[] {
  const links = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1])
  return links.filter((link) => !/^[a-z][a-z0-9+.-]*:/i.test(link))
}

/** GitHub's anchor for a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
function slug (heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')
}

/** The anchors of a Markdown document's headings (fenced code left out). */
function anchors (markdown: string): Set<string> {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```/gm, '')
  return new Set([...withoutCode.matchAll(/^#{1,6} (.+)$/gm)].map((match) => slug(match[1])))
}

t.test('every relative link of the docs points at a file of the repository, and at a heading of it when it names one', async (t) => {
  for (const document of DOCUMENTS) {
    const text = readFileSync(join(ROOT, document), 'utf8')
    for (const link of relativeLinks(text)) {
      const [path, fragment] = link.split('#')
      const target = path === '' ? document : normalize(join(dirname(document), path))
      t.ok(existsSync(join(ROOT, target)), `${document} → ${link}`)
      if (fragment !== undefined && target.endsWith('.md') && existsSync(join(ROOT, target))) {
        t.ok(anchors(readFileSync(join(ROOT, target), 'utf8')).has(fragment), `${document} → ${link}: the heading exists`)
      }
    }
    t.notMatch(text, /\.\.\/shared\//, `${document} names no file outside the repository`)
  }
})

t.test('the README is short, and its map and docs/architecture.md name every capability', async (t) => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
  const architecture = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8')
  t.ok(readme.split('\n').length <= README_MAX_LINES, `README.md has ${readme.split('\n').length} lines, at most ${README_MAX_LINES}`)
  const capabilities = readdirSync(join(ROOT, 'plugins'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
  t.ok(capabilities.length > 10, 'the capabilities were found')
  for (const capability of capabilities) {
    t.match(readme, `\`plugins/${capability}\``, `the README's map names plugins/${capability}`)
    t.match(architecture, `| \`${capability}\` |`, `docs/architecture.md's table has a row for ${capability}`)
  }
  for (const document of DOCUMENTS.filter((name) => name.startsWith('docs/'))) {
    t.match(readme, `](${document})`, `the README links ${document}`)
  }
})

t.test('the link reader and the anchors', async (t) => {
  t.same(relativeLinks('[a](docs/x.md#part) [b](https://example.com) [c](#top) [d](mailto:x@example.com) [e](../y.md)'), ['docs/x.md#part', '#top', '../y.md'])
  t.equal(slug('Growth (`npm run bench:growth`, #28 item 7)'), 'growth-npm-run-benchgrowth-28-item-7')
  t.equal(slug('What it does, by capability'), 'what-it-does-by-capability')
  t.same([...anchors('# A b\n```sh\n# not a heading\n```\n## C-d')], ['a-b', 'c-d'])
})
