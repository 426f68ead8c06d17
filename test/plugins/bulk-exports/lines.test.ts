import t from 'tap'
import { API_VERSION_RELEASES } from '../../../sdk/src/contract/api-versions.ts'
import { EXPORT_KNOWN_CHANGES, EXPORT_SHAPES } from '../../../plugins/commerce/export-rows.ts'

/**
 * A bulk export's lines are written by SQL (plugins/commerce/export-rows.ts), in each API version's
 * shape: a release that changes a product, an order or a review must teach that SQL its change. The
 * exports' own tests then compare the lines with the App API list's records in every version.
 */
t.test('every release change to an exported shape is one the export\'s SQL writes', async (t) => {
  const shapes = Object.values(EXPORT_SHAPES) as string[]
  const changes = API_VERSION_RELEASES.flatMap((release) => release.changes)
    .filter((change) => change.shapes.some((shape) => shapes.includes(shape) || shape === 'OrderItem'))
  t.ok(changes.length > 0, 'the registry has changes to them (2026-12\'s money objects)')
  for (const change of changes) t.ok(EXPORT_KNOWN_CHANGES.includes(change.id), `${change.id} is known to the export`)
})
