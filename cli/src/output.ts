/**
 * What the CLI prints: plain text for people, one JSON document per result with --json. Colours and
 * the spinner only when the stream is a terminal (and NO_COLOR is unset), so pipes and CI logs stay clean.
 */
const SPINNER_FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏']
const SPINNER_MS = 80

export interface Output {
  json: boolean
  /** A result: JSON on stdout with --json, else the text. */
  result: (value: unknown, text: string) => void
  /** A line for people only (skipped with --json). */
  info: (text: string) => void
  /** A warning or progress note on stderr, never mixed into --json's stdout. */
  note: (text: string) => void
  bold: (text: string) => string
  dim: (text: string) => string
  green: (text: string) => string
  red: (text: string) => string
  yellow: (text: string) => string
  /** Runs `work` with a spinner on a terminal; a line on stderr otherwise (never with --json). */
  spin: <T>(label: string, work: () => Promise<T>) => Promise<T>
}

export function createOutput (json: boolean, stdout: NodeJS.WriteStream = process.stdout, stderr: NodeJS.WriteStream = process.stderr): Output {
  const colours = stdout.isTTY === true && (process.env.NO_COLOR ?? '') === ''
  const paint = (code: number) => (text: string) => colours ? `\u001b[${code}m${text}\u001b[0m` : text
  return {
    json,
    result (value, text) { stdout.write(json ? `${JSON.stringify(value)}\n` : `${text}\n`) },
    info (text) { if (!json) stdout.write(`${text}\n`) },
    note (text) { stderr.write(`${text}\n`) },
    bold: paint(1),
    dim: paint(2),
    green: paint(32),
    red: paint(31),
    yellow: paint(33),
    async spin (label, work) {
      if (json || stderr.isTTY !== true) return await work()
      let frame = 0
      const timer = setInterval(() => { stderr.write(`\r${SPINNER_FRAMES[frame++ % SPINNER_FRAMES.length]} ${label}`) }, SPINNER_MS)
      try {
        return await work()
      } finally {
        clearInterval(timer)
        stderr.write('\r\u001b[2K')
      }
    }
  }
}

/** Fixed-width columns for a list. */
export function table (rows: string[][]): string {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? []
  return rows.map((row) => row.map((cell, column) => column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)).join('  ')).join('\n')
}
