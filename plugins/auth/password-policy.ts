import { createRequire } from 'node:module'
import type * as ZxcvbnCore from '@zxcvbn-ts/core'
import type * as ZxcvbnCommon from '@zxcvbn-ts/language-common'

/** DESIGN §21: at least this long, and not common. */
export const MIN_PASSWORD_LENGTH = 10
/**
 * zxcvbn's score 2 means "somewhat guessable": about a million guesses or more. Below it a password is
 * on the common-password list (49 000 entries), a keyboard walk, a repeat or a year away from one.
 */
const MIN_SCORE = 2

let scorer: typeof ZxcvbnCore.zxcvbn | undefined

/**
 * zxcvbn with its dictionaries, loaded and ranked at the first password check: at import they were a
 * tenth of a second of every start's CPU (#43), and a start checks no password. Loaded with `require`
 * (both packages are CommonJS, as their import loaded them) so that the check stays synchronous.
 */
function zxcvbn (password: string, userInputs: string[]): ReturnType<typeof ZxcvbnCore.zxcvbn> {
  if (scorer === undefined) {
    const load = createRequire(import.meta.url)
    const core = load('@zxcvbn-ts/core') as typeof ZxcvbnCore
    const { adjacencyGraphs, dictionary } = load('@zxcvbn-ts/language-common') as typeof ZxcvbnCommon
    core.zxcvbnOptions.setOptions({ dictionary: { ...dictionary }, graphs: adjacencyGraphs })
    scorer = core.zxcvbn
  }
  return scorer(password, userInputs)
}

/**
 * Words an attacker tries first on this platform, beside zxcvbn's lists: its own vocabulary and the
 * words of default and demo passwords ("demo-password" scored 2, "guessable" but allowed).
 */
const GUESSABLE_WORDS = ['password', 'passwd', 'pass', 'demo', 'test', 'admin', 'root', 'user', 'login', 'secret', 'welcome', 'letmein', 'changeme',
  'default', 'platform', 'app', 'apps', 'shop', 'store', 'merchant', 'developer', 'reviewer', 'staff', 'owner', 'customer', 'account', 'my', 'the', 'new']
const SEASONS_AND_MONTHS = 'spring|summer|autumn|fall|winter|january|february|march|april|may|june|july|august|september|october|november|december|' +
  'jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec'
/** "Summer2024!", "winter-25", "March2026?": a season or month, a year, a few symbols: the first guesses of every spraying list. */
const SEASON_AND_YEAR = new RegExp(`^[\\W_]*(?:${SEASONS_AND_MONTHS})[\\W_]*(?:(?:19|20)?\\d{2})[\\W_]*$`, 'i')

/** Whether `word` is made only of guessable words ("demopassword", "adminpass"). */
function onlyGuessableWords (word: string): boolean {
  if (word === '') return true
  return GUESSABLE_WORDS.some((guess) => word.startsWith(guess) && onlyGuessableWords(word.slice(guess.length)))
}

/** Letters split at everything else: "Demo-Password1!" is ["demo", "password"]. */
const wordsOf = (password: string) => password.toLowerCase().split(/[^a-z]+/).filter((word) => word !== '')

/** Why `password` may not be set, or null when it may; `userInputs` (email, name) count as guessable too. */
export function passwordProblem (password: string, userInputs: string[] = []): string | null {
  if ([...password].length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`
  // scoring is linear in the length, but only the first 100 characters decide whether it is common
  const { score } = zxcvbn(password.slice(0, 100), userInputs)
  const words = wordsOf(password.slice(0, 100))
  if (score < MIN_SCORE || SEASON_AND_YEAR.test(password) || (words.length > 0 && words.every(onlyGuessableWords))) {
    return 'is too common or easy to guess; try a few unrelated words'
  }
  return null
}
