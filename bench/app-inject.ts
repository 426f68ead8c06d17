import type { App } from '../server/app.ts'

/** One in-process request with a bearer token; anything but a 2xx throws with the answer's start. */
export async function inject (app: App, method: 'GET' | 'POST', url: string, token: string, payload?: object) {
  const response = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload }) })
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body.slice(0, 300)}`)
  return response.json()
}
