/** Types of server/build-server.js (plain JavaScript: server/start.js runs it without a TypeScript loader). */
export const SERVER_SOURCES: string[]
export const ENTRIES: string[]
export function bundleDir (root?: string): string
export function serverSourcesHash (root?: string): string
export function isBundleCurrent (hash: string, dir?: string): boolean
export function buildServerBundle (hash: string, options?: { root?: string, outdir?: string }): Promise<void>
export function ensureServerBuilt (root?: string): Promise<{ entries: Record<string, string>, problem: null } | { entries: null, problem: string }>
