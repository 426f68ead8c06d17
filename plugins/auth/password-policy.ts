import { zxcvbn, zxcvbnOptions } from '@zxcvbn-ts/core'
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common'

/** DESIGN §21: at least this long, and not common. */
export const MIN_PASSWORD_LENGTH = 10
/**
 * zxcvbn's score 2 means "somewhat guessable": about a million guesses or more. Below it a password is
 * on the common-password list (49 000 entries), a keyboard walk, a repeat or a year away from one.
 */
const MIN_SCORE = 2

zxcvbnOptions.setOptions({ dictionary: { ...dictionary }, graphs: adjacencyGraphs })

/** Why `password` may not be set, or null when it may; `userInputs` (email, name) count as guessable too. */
export function passwordProblem (password: string, userInputs: string[] = []): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`
  // scoring is linear in the length, but only the first 100 characters decide whether it is common
  const { score } = zxcvbn(password.slice(0, 100), userInputs)
  if (score < MIN_SCORE) return 'is too common or easy to guess; try a few unrelated words'
  return null
}
