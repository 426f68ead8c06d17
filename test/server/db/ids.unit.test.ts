import t from 'tap'
import { derivedId, newId } from '../../../server/db/ids.ts'

t.test('ids: a prefix and 16 characters of [0-9a-z]; random ones differ, derived ones follow from their key', async (t) => {
  const form = /^dlv_[0-9a-z]{16}$/
  t.match(newId('dlv'), form)
  t.not(newId('dlv'), newId('dlv'))
  t.equal(new Set(Array.from({ length: 1000 }, () => newId('x'))).size, 1000, 'distinct across refills of the random pool')
  t.match(derivedId('dlv', 'evt_1/wh_1'), form)
  t.equal(derivedId('dlv', 'evt_1/wh_1'), derivedId('dlv', 'evt_1/wh_1'), 'the same key, the same id')
  t.not(derivedId('dlv', 'evt_1/wh_1'), derivedId('dlv', 'evt_1/wh_2'))
})
