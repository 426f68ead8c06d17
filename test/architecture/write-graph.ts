/**
 * `npm run docs:graph`: writes the ports' graph (capabilityDependencies) into docs/architecture.md's
 * "Who calls whom" block; boundaries.test.ts fails while the block differs from the imports.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { capabilityDependencies, readSources, renderDependencies } from './boundaries.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const DOC = `${ROOT}docs/architecture.md`
const BLOCK = /(<!-- who-calls-whom:start -->\n```\n)[\s\S]*?(\n```\n<!-- who-calls-whom:end -->)/

const doc = readFileSync(DOC, 'utf8')
if (!BLOCK.test(doc)) throw new Error('docs/architecture.md has no who-calls-whom block')
const graph = renderDependencies(capabilityDependencies(readSources(ROOT)))
writeFileSync(DOC, doc.replace(BLOCK, (_match, start: string, end: string) => `${start}${graph}${end}`))
console.log(graph)
