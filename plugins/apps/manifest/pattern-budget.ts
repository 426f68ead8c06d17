/**
 * The work an app-supplied `pattern` may cost (DESIGN §21). RE2 matches in time proportional to
 * program × input, so a short pattern can still be slow: `(?i)[a-zß]{0,1000}!` keeps a thousand
 * states alive per character and took 5 s on 10 000 characters. Three bounds: a static one on
 * counted repetition, a measured one on each pattern and schema at save, and a clock on each validation.
 */
import { RE2JS } from 're2js'

export const PATTERN_LIMITS = {
  /** Largest n of `x{n}`, `x{m,n}` or `x{n,}`: RE2 expands a counted repetition into n copies. */
  repeat: 100,
  /** Under case folding (`(?i)`), a counted repetition of a class or group: each copy tests every folded range. */
  foldedRepeat: 20,
  /** RE2's program size (instructions), which nested repetitions multiply: it bounds the states alive per character. */
  programSize: 256,
  /** One pattern on its worst input of its longest string, measured when the manifest is saved. */
  patternMs: 20,
  /** Every pattern of one schema on its worst input, summed: what one settings save may cost at most. */
  schemaMs: 50,
  /** Pattern matching one settings validation may spend before it is refused: the event loop stays under 100 ms. */
  validationMs: 50
} as const

/** Kinds of atom a quantifier can follow; only the kind matters to the limits. */
type Atom = 'literal' | 'class' | 'group'

/** Every counted repetition `{n}`, `{m,n}`, `{n,}` of `pattern` with its bound and what it repeats. */
function countedRepeats (pattern: string): Array<{ bound: number, of: Atom }> {
  const found: Array<{ bound: number, of: Atom }> = []
  let previous: Atom = 'literal'
  let i = 0
  while (i < pattern.length) {
    const char = pattern[i]
    if (char === '\\') {
      const next = pattern[i + 1] ?? ''
      const braced = 'pPx'.includes(next) && pattern[i + 2] === '{'
      const end = braced ? pattern.indexOf('}', i) : -1
      previous = 'dDwWsSpP'.includes(next) ? 'class' : 'literal'
      i = end > 0 ? end + 1 : i + 2
    } else if (char === '[') {
      i = classEnd(pattern, i)
      previous = 'class'
    } else if (char === ')') {
      previous = 'group'
      i++
    } else if (char === '{') {
      const counted = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(i))
      if (counted === null) {
        previous = 'literal'
        i++
      } else {
        found.push({ bound: Number(counted[2] === undefined || counted[2] === '' ? counted[1] : counted[2]), of: previous })
        i += counted[0].length
      }
    } else {
      previous = char === '.' ? 'class' : 'literal'
      i++
    }
  }
  return found
}

/** The index after the `]` closing the class that opens at `start` (a `]` first in the class is a literal). */
function classEnd (pattern: string, start: number): number {
  let i = start + 1
  if (pattern[i] === '^') i++
  if (pattern[i] === ']') i++
  while (i < pattern.length && pattern[i] !== ']') {
    if (pattern[i] === '\\') i += 2
    else if (pattern.startsWith('[:', i)) i = Math.max(pattern.indexOf(':]', i + 2) + 2, i + 1)
    else i++
  }
  return i + 1
}

/** Whether any part of `pattern` folds case: a `(?i)` or `(?i:` flag group (RE2 syntax). */
const foldsCase = (pattern: string) => /\(\?[a-zA-Z]*i[a-zA-Z-]*[:)]/.test(pattern)

/** The first static limit `pattern` breaks, as a message naming it, or null. */
export function patternShapeProblem (pattern: string): string | null {
  const folded = foldsCase(pattern)
  for (const { bound, of } of countedRepeats(pattern)) {
    if (bound > PATTERN_LIMITS.repeat) return `repeats ${bound} times; at most ${PATTERN_LIMITS.repeat} (limit: pattern repetition)`
    if (folded && of !== 'literal' && bound > PATTERN_LIMITS.foldedRepeat) {
      return `repeats a case-folded ${of} ${bound} times; at most ${PATTERN_LIMITS.foldedRepeat} under (?i) (limit: pattern repetition)`
    }
  }
  const size = RE2JS.compile(pattern).programSize()
  if (size > PATTERN_LIMITS.programSize) return `compiles to ${size} RE2 instructions; at most ${PATTERN_LIMITS.programSize} (limit: pattern size)`
  return null
}

/** Characters an input is built of: the pattern's own (literals, class members, separators) first, then common ones. */
function alphabet (pattern: string): string[] {
  const chars = [...new Set([...pattern.replace(/[\\^$.|?*+()[\]{}]/g, ''), 'a', '0', ' '])]
  return chars.slice(0, 6)
}

/** The literal characters a match may need last: a tail such as the `!` of `[a-z]{0,1000}!` makes RE2 run the whole input. */
function tails (pattern: string): string[] {
  const literal = pattern.replace(/\\.|\[[^\]]*\]|\{[^}]*\}/g, '').replace(/[\\^$.|?*+()[\]{}]/g, '')
  return [...new Set([...literal].reverse())].slice(0, 2)
}

/** Milliseconds one `find` of `input` takes, the quicker of two runs (the first may include compiling to machine code). */
function timeFind (re: RE2JS, input: string): number {
  let best = Infinity
  for (let run = 0; run < 2; run++) {
    const started = performance.now()
    re.matcher(input).find()
    best = Math.min(best, performance.now() - started)
  }
  return best
}

/** Probe length at which candidate inputs are ranked before the slowest one is timed at full length. */
const PROBE = 128
/** Measures kept, by length and pattern: a manifest saved again, or a stored schema compiled, is not timed again. */
const measures = new Map<string, number>()
const MAX_MEASURES = 1000

/**
 * The measure of worstCaseMs as steps, each one `find` or a few short ones, so that a caller can let the
 * event loop run between them (measureAsync) or run them at once (worstCaseMs).
 */
function * measuring (pattern: string, length: number, budgetMs: number): Generator<void, number> {
  const re = RE2JS.compile(pattern)
  const candidates = alphabet(pattern).flatMap((char) => [
    (n: number) => char.repeat(n),
    ...tails(pattern).map((tail) => (n: number) => char.repeat(Math.max(n - 1, 0)) + tail)
  ])
  let slowest = candidates[0]
  let slowestMs = -1
  for (const candidate of candidates) {
    const ms = timeFind(re, candidate(Math.min(PROBE, length)))
    if (ms > slowestMs) [slowest, slowestMs] = [candidate, ms]
  }
  let ms = slowestMs
  for (let n = PROBE * 4; ms <= budgetMs; n *= 4) {
    yield
    ms = timeFind(re, slowest(Math.min(n, length)))
    if (n >= length) break
  }
  return ms
}

function remember (key: string, ms: number): number {
  if (measures.size >= MAX_MEASURES) measures.clear()
  measures.set(key, ms)
  return ms
}

/**
 * Milliseconds `pattern` takes on the slowest of a few worst-case inputs of `length` characters: runs of
 * one character, with and without a tail the pattern needs. Ranked at a short length, then the slowest
 * is timed at growing lengths, stopping as soon as one exceeds `budgetMs` (the measure is then a lower bound).
 */
export function worstCaseMs (pattern: string, length: number, budgetMs: number): number {
  const key = `${length}:${pattern}`
  const known = measures.get(key)
  if (known !== undefined) return known
  const steps = measuring(pattern, length, budgetMs)
  let step = steps.next()
  while (step.done !== true) step = steps.next()
  return remember(key, step.value)
}

/** worstCaseMs, letting the event loop serve other requests between runs; the measure is kept for worstCaseMs. */
export async function measureAsync (pattern: string, length: number, budgetMs: number): Promise<void> {
  const key = `${length}:${pattern}`
  if (measures.has(key)) return
  const steps = measuring(pattern, length, budgetMs)
  let step = steps.next()
  while (step.done !== true) {
    await new Promise((resolve) => setImmediate(resolve))
    step = steps.next()
  }
  remember(key, step.value)
}

/**
 * A clock on the pattern matching of one validation: `run` starts it, each `test` of an app's pattern
 * is refused once the matching so far has taken `validationMs`. Validators are synchronous, so one clock serves.
 */
export class PatternWorkExceeded extends Error {}
let spentMs: number | null = null

export function withPatternClock<T> (run: () => T): T {
  spentMs = 0
  try {
    return run()
  } finally {
    spentMs = null
  }
}

/** `find` on the clock when one runs: throws PatternWorkExceeded rather than start a match past the budget. */
export function clockedFind (re: RE2JS, input: string): boolean {
  if (spentMs === null) return re.matcher(input).find()
  if (spentMs > PATTERN_LIMITS.validationMs) throw new PatternWorkExceeded()
  const started = performance.now()
  try {
    return re.matcher(input).find()
  } finally {
    spentMs += performance.now() - started
  }
}
