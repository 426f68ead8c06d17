/** Types of server/db/unpack-template.js (plain JavaScript: the bundled server runs it as a worker's script). */
export function unpackTemplate (file: string, dataDir: string): boolean
