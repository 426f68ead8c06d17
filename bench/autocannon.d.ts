/** The part of autocannon's API the bench uses (the package ships no types). */
declare module 'autocannon' {
  interface Histogram { average: number, p50: number, p99: number, total: number }
  interface Result { requests: Histogram, latency: Histogram, '2xx': number, non2xx: number, errors: number, timeouts: number }
  interface Request { method?: string, path?: string, headers?: Record<string, string>, setupRequest?: (request: Request) => Request }
  interface Options { url: string, connections?: number, duration?: number, requests?: Request[] }
  function autocannon (options: Options): Promise<Result>
  export default autocannon
}
