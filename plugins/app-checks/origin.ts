/** These name the same machine (DESIGN §14: one host when comparing origins). */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

function key (value: string): string | null {
  try {
    const url = new URL(value)
    const host = LOOPBACK.has(url.hostname) ? 'localhost' : url.hostname
    return `${url.protocol}//${host}:${url.port}`
  } catch {
    return null
  }
}

/** Whether two URLs are on one origin, with localhost, 127.0.0.1 and [::1] as one host. */
export function sameOrigin (a: string, b: string): boolean {
  const left = key(a)
  return left !== null && left === key(b)
}
