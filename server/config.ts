import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

const Bool = Type.Union([Type.Literal('true'), Type.Literal('false')])
const Port = Type.Integer({ minimum: 0, maximum: 65535 })
const PositiveInt = Type.Integer({ minimum: 1 })

/** The environment the process reads. One schema is both validator and type. */
export const EnvSchema = Type.Object({
  PORT: Type.Optional(Port),
  HOST: Type.Optional(Type.String({ minLength: 1 })),
  BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  ADMIN_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$' })),
  STOREFRONT_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+/?$', description: 'An origin, or a host template starting with {store}.' })),
  STOREFRONT_PORT: Type.Optional(Port),
  EXAMPLE_APP_PORT: Type.Optional(Port),
  DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  ENCRYPTION_KEY: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  PLATFORM_ENV: Type.Optional(Type.Union([Type.Literal('development'), Type.Literal('production')])),
  PROCESS_ROLE: Type.Optional(Type.Union([Type.Literal('web'), Type.Literal('worker'), Type.Literal('all')])),
  REVIEWER_EMAIL: Type.Optional(Type.String({ pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' })),
  REVIEWER_PASSWORD: Type.Optional(Type.String({ minLength: 8 })),
  DEMO_SEED: Type.Optional(Bool),
  WEBHOOK_TIMEOUT_MS: Type.Optional(PositiveInt),
  WEBHOOK_RETRY_SCHEDULE_SECONDS: Type.Optional(Type.String({ pattern: '^\\d+(\\.\\d+)?(,\\d+(\\.\\d+)?)*$' })),
  DATA_ERASURE_DELAY_SECONDS: Type.Optional(Type.Number({ minimum: 0 })),
  RATE_LIMIT_PER_MINUTE: Type.Optional(PositiveInt),
  STOREFRONT_RATE_LIMIT_PER_MINUTE: Type.Optional(PositiveInt),
  TRUST_PROXY: Type.Optional(Type.String({ pattern: '^(true|false|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$' })),
  AUTH_THROTTLE_FREE_FAILURES: Type.Optional(PositiveInt),
  AUTH_THROTTLE_MAX_BLOCK_SECONDS: Type.Optional(PositiveInt),
  AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE: Type.Optional(PositiveInt),
  WEBHOOK_DISABLE_AFTER_FAILURES: Type.Optional(PositiveInt),
  DELIVERY_LOG_RETENTION_DAYS: Type.Optional(PositiveInt),
  APP_API_CACHE_MB: Type.Optional(Type.Integer({ minimum: 0, maximum: 4096 })),
  DATABASE_POOL_SIZE: Type.Optional(Type.Integer({ minimum: 2, maximum: 500 })),
  LOG_LEVEL: Type.Optional(Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))))
})
export type Env = Static<typeof EnvSchema>

export const DEFAULTS = {
  PORT: 3000,
  HOST: '0.0.0.0',
  DATA_DIR: './data',
  PLATFORM_ENV: 'development',
  PROCESS_ROLE: 'all',
  WEBHOOK_TIMEOUT_MS: 10_000,
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '30,120,480,1920,7200',
  DATA_ERASURE_DELAY_SECONDS: 172_800,
  RATE_LIMIT_PER_MINUTE: 60,
  STOREFRONT_RATE_LIMIT_PER_MINUTE: 60,
  TRUST_PROXY: 'false',
  AUTH_THROTTLE_FREE_FAILURES: 5,
  AUTH_THROTTLE_MAX_BLOCK_SECONDS: 900,
  AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE: 30,
  WEBHOOK_DISABLE_AFTER_FAILURES: 10,
  DELIVERY_LOG_RETENTION_DAYS: 30,
  APP_API_CACHE_MB: 32,
  DATABASE_POOL_SIZE: 10,
  LOG_LEVEL: 'info'
} as const

/**
 * TRUST_PROXY as fastify's `trustProxy`: false (the default: the socket's address, which a client
 * cannot forge), true (trust X-Forwarded-For from anyone: only behind a load balancer that sets it), or
 * the proxies' addresses / CIDRs, comma-separated.
 */
function trustProxy (value: string): boolean | string {
  return value === 'true' || value === 'false' ? value === 'true' : value
}

export class ConfigError extends Error {
  name = 'ConfigError'
}

const NUMERIC = new Set(['PORT', 'STOREFRONT_PORT', 'EXAMPLE_APP_PORT',
  'WEBHOOK_TIMEOUT_MS', 'DATA_ERASURE_DELAY_SECONDS', 'RATE_LIMIT_PER_MINUTE', 'STOREFRONT_RATE_LIMIT_PER_MINUTE',
  'WEBHOOK_DISABLE_AFTER_FAILURES', 'DELIVERY_LOG_RETENTION_DAYS', 'APP_API_CACHE_MB', 'DATABASE_POOL_SIZE',
  'AUTH_THROTTLE_FREE_FAILURES', 'AUTH_THROTTLE_MAX_BLOCK_SECONDS', 'AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE'])

/** Reads only the variables the schema names; empty strings count as unset. */
function pick (source: NodeJS.ProcessEnv): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(EnvSchema.properties)) {
    const raw = source[key]
    if (raw === undefined || raw === '') continue
    out[key] = NUMERIC.has(key) && /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw
  }
  return out
}

/** Validates the environment; throws ConfigError with one line naming the variable. */
export function parseEnv (source: NodeJS.ProcessEnv): Env {
  const env = pick(source)
  const error = Value.Errors(EnvSchema, env).First()
  if (error) {
    const name = error.path.replace(/^\//, '') || 'environment'
    throw new ConfigError(`Invalid configuration: ${name}=${JSON.stringify(source[name] ?? '')} ${error.message}`)
  }
  if (env.REVIEWER_EMAIL !== undefined && env.REVIEWER_PASSWORD === undefined) {
    throw new ConfigError('Invalid configuration: REVIEWER_PASSWORD is required when REVIEWER_EMAIL is set')
  }
  return env as Env
}

/**
 * A secret kept in DATA_DIR so that restarts keep sessions and encrypted data readable.
 * In memory mode (tests) a fresh one is made per process.
 */
function persistedSecret (dataDir: string | null, file: string, bytes: number): string {
  if (dataDir === null) return randomBytes(bytes).toString('hex')
  const path = join(dataDir, file)
  if (existsSync(path)) return readFileSync(path, 'utf8').trim()
  mkdirSync(dataDir, { recursive: true })
  const value = randomBytes(bytes).toString('hex')
  writeFileSync(path, value + '\n', { mode: 0o600 })
  return value
}

/** STOREFRONT_URL is an origin (paths stay /store/...); a `{store}` placeholder may only be the host's first label. */
function storefrontOrigin (value: string): string {
  const trimmed = value.replace(/\/$/, '')
  const placeholders = trimmed.split('{store}').length - 1
  const sample = trimmed.replace('{store}', 'x')
  let url: URL | null = null
  try { url = new URL(sample) } catch {}
  if (url === null || url.origin !== sample || placeholders > 1 || (placeholders === 1 && !/^https?:\/\/\{store\}\./.test(trimmed))) {
    throw new ConfigError(`Invalid configuration: STOREFRONT_URL=${JSON.stringify(value)} must be an origin such as https://shop.example or a host template such as https://{store}.shops.example`)
  }
  return trimmed
}

export interface LoadOptions {
  /** Keep the embedded database in memory (tests). */
  inMemory?: boolean
}

export function loadConfig (source: NodeJS.ProcessEnv = process.env, options: LoadOptions = {}) {
  const env = parseEnv(source)
  const port = env.PORT ?? DEFAULTS.PORT
  const databaseUrl = env.DATABASE_URL ?? null
  /** null: in-memory PGlite (tests), nothing written to disk */
  const dataDir: string | null = options.inMemory === true && databaseUrl === null ? null : resolve(env.DATA_DIR ?? DEFAULTS.DATA_DIR)
  if (databaseUrl !== null && env.JWT_SECRET === undefined && options.inMemory !== true) {
    throw new ConfigError('Invalid configuration: JWT_SECRET is required when DATABASE_URL is set (every process must share it)')
  }
  if (databaseUrl !== null && env.ENCRYPTION_KEY === undefined && options.inMemory !== true) {
    throw new ConfigError('Invalid configuration: ENCRYPTION_KEY (64 hex characters) is required when DATABASE_URL is set')
  }
  const secretsDir = databaseUrl === null ? dataDir : null
  const baseUrl = (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, '')
  // PORT=0 makes the storefront's port ephemeral too (DESIGN §14)
  const storefrontPort = env.STOREFRONT_PORT ?? (port === 0 ? 0 : port + 1)
  const storefrontUrl = storefrontOrigin(env.STOREFRONT_URL ?? `http://localhost:${storefrontPort}`)
  return {
    port,
    host: env.HOST ?? DEFAULTS.HOST,
    baseUrl,
    adminUrl: (env.ADMIN_URL ?? baseUrl).replace(/\/$/, ''),
    storefrontPort,
    /** The storefront's origin, or a host template such as `https://{store}.shops.example`. */
    storefrontUrl,
    /** Which URLs were derived from the ports (and follow the real ports when PORT=0). */
    urlsFromPorts: {
      base: env.BASE_URL === undefined,
      admin: env.ADMIN_URL === undefined && env.BASE_URL === undefined,
      storefront: env.STOREFRONT_URL === undefined
    },
    dataDir,
    databaseUrl: databaseUrl as string | null,
    /** PostgreSQL connections per process (PGlite has one). */
    databasePoolSize: env.DATABASE_POOL_SIZE ?? DEFAULTS.DATABASE_POOL_SIZE,
    redisUrl: env.REDIS_URL ?? null as string | null,
    jwtSecret: env.JWT_SECRET ?? persistedSecret(secretsDir, 'jwt-secret', 32),
    encryptionKey: Buffer.from(env.ENCRYPTION_KEY ?? persistedSecret(secretsDir, 'encryption-key', 32), 'hex'),
    production: (env.PLATFORM_ENV ?? DEFAULTS.PLATFORM_ENV) === 'production',
    processRole: env.PROCESS_ROLE ?? DEFAULTS.PROCESS_ROLE as 'web' | 'worker' | 'all',
    reviewer: env.REVIEWER_EMAIL !== undefined
      ? {
          email: env.REVIEWER_EMAIL.toLowerCase(),
          password: env.REVIEWER_PASSWORD as string
        }
      : null as { email: string, password: string } | null,
    demoSeed: (env.DEMO_SEED ?? 'true') === 'true',
    /** The demo's reference app (examples/reference-app) listens here; PORT=0 makes it ephemeral too. */
    exampleAppPort: env.EXAMPLE_APP_PORT ?? (port === 0 ? 0 : port + 2),
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS ?? DEFAULTS.WEBHOOK_TIMEOUT_MS,
    webhookRetryScheduleSeconds: (env.WEBHOOK_RETRY_SCHEDULE_SECONDS ?? DEFAULTS.WEBHOOK_RETRY_SCHEDULE_SECONDS).split(',').map(Number),
    dataErasureDelaySeconds: env.DATA_ERASURE_DELAY_SECONDS ?? DEFAULTS.DATA_ERASURE_DELAY_SECONDS,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE ?? DEFAULTS.RATE_LIMIT_PER_MINUTE,
    storefrontRateLimitPerMinute: env.STOREFRONT_RATE_LIMIT_PER_MINUTE ?? DEFAULTS.STOREFRONT_RATE_LIMIT_PER_MINUTE,
    trustProxy: trustProxy(env.TRUST_PROXY ?? DEFAULTS.TRUST_PROXY),
    /** Sign-in throttle (DESIGN §16): per account after N failures, and per client address. */
    authThrottle: {
      freeFailures: env.AUTH_THROTTLE_FREE_FAILURES ?? DEFAULTS.AUTH_THROTTLE_FREE_FAILURES,
      maxBlockMs: (env.AUTH_THROTTLE_MAX_BLOCK_SECONDS ?? DEFAULTS.AUTH_THROTTLE_MAX_BLOCK_SECONDS) * 1000,
      perAddressPerMinute: env.AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE ?? DEFAULTS.AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE
    },
    webhookDisableAfterFailures: env.WEBHOOK_DISABLE_AFTER_FAILURES ?? DEFAULTS.WEBHOOK_DISABLE_AFTER_FAILURES,
    deliveryLogRetentionDays: env.DELIVERY_LOG_RETENTION_DAYS ?? DEFAULTS.DELIVERY_LOG_RETENTION_DAYS,
    /** Memory for the App API catalogue cache (product reads); 0 turns it off. */
    appApiCacheBytes: (env.APP_API_CACHE_MB ?? DEFAULTS.APP_API_CACHE_MB) * 1024 * 1024,
    logLevel: env.LOG_LEVEL ?? DEFAULTS.LOG_LEVEL as string
  }
}

export type Config = ReturnType<typeof loadConfig>
