import { randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Type, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { ApiVersionSchema, LATEST_API_VERSION, type ApiVersion } from '../sdk/src/contract/api-versions.ts'

/** The placeholder of a per-store storefront host (`https://{store}.shops.example`). */
export const STORE_PLACEHOLDER = '{store}'

/**
 * The storefront's default: a host per store under `localhost` (DESIGN §21), which browsers and curl
 * resolve to loopback, so no two stores' pages share an origin even in development.
 */
export const defaultStorefrontUrl = (port: number): string => `http://${STORE_PLACEHOLDER}.localhost:${port}`

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
  DATABASE_LISTEN_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'Direct PostgreSQL connection for LISTEN and the migration lock when DATABASE_URL is a pooler' })),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://' })),
  SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://', description: 'Where staff invitations are mailed (DESIGN §24), e.g. smtp://user:pass@mail.example.com:587; unset: the link is shown to the owner only' })),
  SMTP_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 200, description: 'The From of the mail the platform sends' })),
  JWT_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  ENCRYPTION_KEY: Type.Optional(Type.String({ pattern: '^[0-9a-fA-F]{64}$' })),
  PLATFORM_ENV: Type.Optional(Type.Union([Type.Literal('development'), Type.Literal('production')])),
  PROCESS_ROLE: Type.Optional(Type.Union([Type.Literal('web'), Type.Literal('worker'), Type.Literal('all')])),
  REVIEWER_EMAIL: Type.Optional(Type.String({ pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' })),
  REVIEWER_PASSWORD: Type.Optional(Type.String({ minLength: 8 })),
  DEMO_SEED: Type.Optional(Bool),
  ALLOW_DEMO_ACCOUNTS: Type.Optional(Bool),
  WEBHOOK_TIMEOUT_MS: Type.Optional(PositiveInt),
  DEVICE_POLL_INTERVAL_SECONDS: Type.Optional(PositiveInt),
  WEBHOOK_RETRY_SCHEDULE_SECONDS: Type.Optional(Type.String({ pattern: '^\\d+(\\.\\d+)?(,\\d+(\\.\\d+)?)*$' })),
  DATA_ERASURE_DELAY_SECONDS: Type.Optional(Type.Number({ minimum: 0 })),
  BILLING_CURRENCY: Type.Optional(Type.String({ pattern: '^[A-Z]{3}$', description: 'ISO 4217: the currency of every app price, charge and invoice (DESIGN §23)' })),
  PLATFORM_FEE_PERCENT: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  APP_REVIEW_MIN_INSTALL_HOURS: Type.Optional(Type.Number({ minimum: 0, description: 'How long a business\'s real installation of an app must have existed before it may review the app (DESIGN §24)' })),
  BILLING_DAY_SECONDS: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: 'The length of a billing day: the 30-day cycle, trials, the 2-day expiry of a pending charge and the 365-day year scale with it (tests)' })),
  SYNC_SETTLE_SECONDS: Type.Optional(Type.Number({ minimum: 0, maximum: 300, description: 'Cursor mode of the App API lists shows changes older than this (a change is stamped when its transaction starts and seen when it commits); 0 on the embedded database, whose transactions run one at a time' })),
  BULK_EXPORT_TIMEOUT_SECONDS: Type.Optional(PositiveInt),
  BULK_EXPORT_CHUNK_BYTES: Type.Optional(Type.Integer({ minimum: 1024, maximum: 64 * 1024 * 1024, description: 'The pieces an export file is stored in, one row each' })),
  RATE_LIMIT_PER_MINUTE: Type.Optional(PositiveInt),
  STOREFRONT_RATE_LIMIT_PER_MINUTE: Type.Optional(PositiveInt),
  PAYMENT_EXPIRY_MINUTES: Type.Optional(PositiveInt),
  MAX_LINE_QUANTITY: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  TRUST_PROXY: Type.Optional(Type.String({ pattern: '^(true|false|[0-9a-fA-F.:/]+(,[0-9a-fA-F.:/]+)*)$' })),
  AUTH_THROTTLE_FREE_FAILURES: Type.Optional(PositiveInt),
  AUTH_THROTTLE_MAX_BLOCK_SECONDS: Type.Optional(PositiveInt),
  AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE: Type.Optional(PositiveInt),
  WEBHOOK_DISABLE_AFTER_FAILURES: Type.Optional(PositiveInt),
  DELIVERY_LOG_RETENTION_DAYS: Type.Optional(PositiveInt),
  APP_API_CACHE_MB: Type.Optional(Type.Integer({ minimum: 0, maximum: 4096 })),
  DATABASE_POOL_SIZE: Type.Optional(Type.Integer({ minimum: 2, maximum: 500 })),
  DATABASE_ACQUIRE_TIMEOUT_MS: Type.Optional(PositiveInt),
  DATABASE_STATEMENT_TIMEOUT_MS: Type.Optional(PositiveInt),
  APP_API_BUSINESS_CONCURRENCY: Type.Optional(PositiveInt),
  API_VERSION_CURRENT: Type.Optional(ApiVersionSchema),
  API_VERSION_SUNSETS: Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}=\\d{4}-\\d{2}-\\d{2}(,\\d{4}-\\d{2}=\\d{4}-\\d{2}-\\d{2})*$', description: 'Announced sunsets: 2026-11=2027-06-01,…' })),
  CHECKS_BROWSER_PATH: Type.Optional(Type.String({ minLength: 1, description: 'Chromium for the app checks\' admin-page bridge check; unset: Debian\'s /usr/bin/chromium when it exists, else that check is skipped; `off` skips it' })),
  HTTP_REQUEST_TIMEOUT_MS: Type.Optional(PositiveInt),
  HTTP_HEADERS_TIMEOUT_MS: Type.Optional(PositiveInt),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: Type.Optional(PositiveInt),
  OTEL_EXPORTER_OTLP_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^\\s]+$', description: 'OTLP/HTTP collector; set, the process sends traces (server/telemetry-start.ts reads it)' })),
  OTEL_SERVICE_NAME: Type.Optional(Type.String({ minLength: 1 })),
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 16, description: 'Bearer token for GET /metrics from other hosts (loopback needs none)' })),
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
  /** RFC 8628 §3.2: the device flow's polling interval, 5 seconds unless said otherwise. */
  DEVICE_POLL_INTERVAL_SECONDS: 5,
  WEBHOOK_RETRY_SCHEDULE_SECONDS: '30,120,480,1920,7200',
  DATA_ERASURE_DELAY_SECONDS: 172_800,
  BILLING_CURRENCY: 'USD',
  PLATFORM_FEE_PERCENT: 20,
  APP_REVIEW_MIN_INSTALL_HOURS: 24,
  BILLING_DAY_SECONDS: 86_400,
  /** On PostgreSQL; the embedded database needs none (one transaction at a time). */
  SYNC_SETTLE_SECONDS: 2,
  BULK_EXPORT_TIMEOUT_SECONDS: 3600,
  BULK_EXPORT_CHUNK_BYTES: 1024 * 1024,
  RATE_LIMIT_PER_MINUTE: 60,
  STOREFRONT_RATE_LIMIT_PER_MINUTE: 60,
  PAYMENT_EXPIRY_MINUTES: 30,
  MAX_LINE_QUANTITY: 20,
  TRUST_PROXY: 'false',
  AUTH_THROTTLE_FREE_FAILURES: 5,
  AUTH_THROTTLE_MAX_BLOCK_SECONDS: 900,
  AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE: 30,
  WEBHOOK_DISABLE_AFTER_FAILURES: 10,
  DELIVERY_LOG_RETENTION_DAYS: 30,
  APP_API_CACHE_MB: 32,
  DATABASE_POOL_SIZE: 10,
  DATABASE_ACQUIRE_TIMEOUT_MS: 10_000,
  DATABASE_STATEMENT_TIMEOUT_MS: 30_000,
  APP_API_BUSINESS_CONCURRENCY: 4,
  API_VERSION_CURRENT: LATEST_API_VERSION,
  HTTP_REQUEST_TIMEOUT_MS: 30_000,
  HTTP_HEADERS_TIMEOUT_MS: 10_000,
  HTTP_KEEP_ALIVE_TIMEOUT_MS: 5000,
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
  'WEBHOOK_TIMEOUT_MS', 'DEVICE_POLL_INTERVAL_SECONDS', 'DATA_ERASURE_DELAY_SECONDS', 'PLATFORM_FEE_PERCENT', 'APP_REVIEW_MIN_INSTALL_HOURS', 'BILLING_DAY_SECONDS', 'RATE_LIMIT_PER_MINUTE', 'STOREFRONT_RATE_LIMIT_PER_MINUTE',
  'PAYMENT_EXPIRY_MINUTES', 'MAX_LINE_QUANTITY', 'SYNC_SETTLE_SECONDS', 'BULK_EXPORT_TIMEOUT_SECONDS', 'BULK_EXPORT_CHUNK_BYTES',
  'WEBHOOK_DISABLE_AFTER_FAILURES', 'DELIVERY_LOG_RETENTION_DAYS', 'APP_API_CACHE_MB', 'DATABASE_POOL_SIZE', 'DATABASE_ACQUIRE_TIMEOUT_MS', 'DATABASE_STATEMENT_TIMEOUT_MS', 'APP_API_BUSINESS_CONCURRENCY',
  'AUTH_THROTTLE_FREE_FAILURES', 'AUTH_THROTTLE_MAX_BLOCK_SECONDS', 'AUTH_THROTTLE_PER_ADDRESS_PER_MINUTE',
  'HTTP_REQUEST_TIMEOUT_MS', 'HTTP_HEADERS_TIMEOUT_MS', 'HTTP_KEEP_ALIVE_TIMEOUT_MS'])

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

/** Never echoed in an error: the start-up line lands in logs. */
const SECRETS = new Set(['JWT_SECRET', 'ENCRYPTION_KEY', 'REVIEWER_PASSWORD', 'METRICS_TOKEN'])

/** Validates the environment; throws ConfigError with one line naming the variable. */
export function parseEnv (source: NodeJS.ProcessEnv): Env {
  const env = pick(source)
  const error = Value.Errors(EnvSchema, env).First()
  if (error) {
    const name = error.path.replace(/^\//, '') || 'environment'
    const shown = SECRETS.has(name) ? '(hidden)' : JSON.stringify(source[name] ?? '')
    throw new ConfigError(`Invalid configuration: ${name}=${shown} ${error.message}`)
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

/** Where Debian's chromium package puts the browser: the bridge check's browser when CHECKS_BROWSER_PATH is unset (DESIGN §22). */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium'

/**
 * CHECKS_BROWSER_PATH must name an existing file: a typo would otherwise skip a check without a word.
 * Unset, Debian's Chromium is used when it is installed; `off` skips the check even then.
 */
function checksBrowser (value: string | undefined, fallback: string): string | null {
  if (value === 'off') return null
  if (value === undefined) return existsSync(fallback) ? fallback : null
  if (!existsSync(value)) throw new ConfigError(`Invalid configuration: CHECKS_BROWSER_PATH=${JSON.stringify(value)} does not exist (point it at a Chromium binary, e.g. /usr/bin/chromium)`)
  return value
}

/**
 * A production start refuses known-weak settings (DESIGN §20), each with one line naming the
 * setting; a JWT_SECRET under 32 characters is refused in every environment by the schema.
 */
function refuseWeakProduction (env: Env): void {
  if (env.DEMO_SEED === 'true') {
    throw new ConfigError('Invalid configuration: DEMO_SEED=true is development-only (PLATFORM_ENV=production never seeds the demo accounts)')
  }
  if (env.ENCRYPTION_KEY === undefined) {
    throw new ConfigError('Invalid configuration: ENCRYPTION_KEY (64 hex characters) is required when PLATFORM_ENV=production (a key generated into DATA_DIR would sit beside the data it protects)')
  }
}

export interface LoadOptions {
  /** Keep the embedded database in memory (tests). */
  inMemory?: boolean
  /** Where to look for Chromium when CHECKS_BROWSER_PATH is unset (DEBIAN_CHROMIUM; tests name another). */
  debianChromium?: string
  /** false: generate no secret into DATA_DIR (backup and restore read the config, they sign and encrypt nothing). */
  persistSecrets?: boolean
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
  const production = (env.PLATFORM_ENV ?? DEFAULTS.PLATFORM_ENV) === 'production'
  if (production && options.inMemory !== true) refuseWeakProduction(env)
  const secretsDir = databaseUrl === null && options.persistSecrets !== false ? dataDir : null
  const baseUrl = (env.BASE_URL ?? `http://localhost:${port}`).replace(/\/$/, '')
  // PORT=0 makes the storefront's port ephemeral too (DESIGN §14)
  const storefrontPort = env.STOREFRONT_PORT ?? (port === 0 ? 0 : port + 1)
  const storefrontUrl = storefrontOrigin(env.STOREFRONT_URL ?? defaultStorefrontUrl(storefrontPort))
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
    /** A direct connection (not through a transaction pooler) for LISTEN and the migration lock; DATABASE_URL when unset. */
    databaseListenUrl: env.DATABASE_LISTEN_URL ?? databaseUrl as string | null,
    /** PostgreSQL connections per process (PGlite has one). */
    databasePoolSize: env.DATABASE_POOL_SIZE ?? DEFAULTS.DATABASE_POOL_SIZE,
    /** How long a query waits for a pool connection before the request gets 503 (PostgreSQL). */
    databaseAcquireTimeoutMs: env.DATABASE_ACQUIRE_TIMEOUT_MS ?? DEFAULTS.DATABASE_ACQUIRE_TIMEOUT_MS,
    /** The longest a query may run before PostgreSQL cancels it and the request gets 503 (direct connections; behind a pooler, set it on the role). */
    databaseStatementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS ?? DEFAULTS.DATABASE_STATEMENT_TIMEOUT_MS,
    /** App API requests of one business running at once in this process; more wait their turn (fairness: one business cannot hold the whole pool). */
    appApiBusinessConcurrency: env.APP_API_BUSINESS_CONCURRENCY ?? DEFAULTS.APP_API_BUSINESS_CONCURRENCY,
    /** The API version new installations pin to (sdk/src/contract/api-versions.ts): the newest once it ships. */
    apiVersionCurrent: (env.API_VERSION_CURRENT ?? DEFAULTS.API_VERSION_CURRENT) as ApiVersion,
    /** Sunsets announced by the operator (version → YYYY-MM-DD), over the registry's own. */
    apiVersionSunsets: Object.fromEntries((env.API_VERSION_SUNSETS ?? '').split(',').filter((pair) => pair !== '').map((pair) => pair.split('='))) as Record<string, string>,
    redisUrl: env.REDIS_URL ?? null as string | null,
    /** Staff invitations are mailed through this SMTP server when set (DESIGN §24). */
    smtp: env.SMTP_URL === undefined ? null : { url: env.SMTP_URL, from: env.SMTP_FROM ?? 'App Platform <no-reply@localhost>' },
    jwtSecret: env.JWT_SECRET ?? persistedSecret(secretsDir, 'jwt-secret', 32),
    encryptionKey: Buffer.from(env.ENCRYPTION_KEY ?? persistedSecret(secretsDir, 'encryption-key', 32), 'hex'),
    production,
    processRole: env.PROCESS_ROLE ?? DEFAULTS.PROCESS_ROLE as 'web' | 'worker' | 'all',
    reviewer: env.REVIEWER_EMAIL !== undefined
      ? {
          email: env.REVIEWER_EMAIL.toLowerCase(),
          password: env.REVIEWER_PASSWORD as string
        }
      : null as { email: string, password: string } | null,
    /** The demo accounts and store (DESIGN §20): development only, on by default there. */
    demoSeed: !production && (env.DEMO_SEED ?? 'true') === 'true',
    /** A production start refuses while a demo account exists, unless this is set. */
    allowDemoAccounts: env.ALLOW_DEMO_ACCOUNTS === 'true',
    /** The demo's reference app (examples/reference-app) listens here; PORT=0 makes it ephemeral too. */
    exampleAppPort: env.EXAMPLE_APP_PORT ?? (port === 0 ? 0 : port + 2),
    webhookTimeoutMs: env.WEBHOOK_TIMEOUT_MS ?? DEFAULTS.WEBHOOK_TIMEOUT_MS,
    /** How often the CLI may poll the token endpoint during device login (tests shorten it). */
    devicePollIntervalSeconds: env.DEVICE_POLL_INTERVAL_SECONDS ?? DEFAULTS.DEVICE_POLL_INTERVAL_SECONDS,
    /** Headless Chromium for the app checks' admin-page bridge check (DESIGN §18); null: that check is SKIP. */
    checksBrowserPath: checksBrowser(env.CHECKS_BROWSER_PATH, options.debianChromium ?? DEBIAN_CHROMIUM),
    webhookRetryScheduleSeconds: (env.WEBHOOK_RETRY_SCHEDULE_SECONDS ?? DEFAULTS.WEBHOOK_RETRY_SCHEDULE_SECONDS).split(',').map(Number),
    dataErasureDelaySeconds: env.DATA_ERASURE_DELAY_SECONDS ?? DEFAULTS.DATA_ERASURE_DELAY_SECONDS,
    billingCurrency: env.BILLING_CURRENCY ?? DEFAULTS.BILLING_CURRENCY,
    platformFeePercent: env.PLATFORM_FEE_PERCENT ?? DEFAULTS.PLATFORM_FEE_PERCENT,
    /** A business may review an app once its real installation has existed this long (DESIGN §24). */
    appReviewMinInstallHours: env.APP_REVIEW_MIN_INSTALL_HOURS ?? DEFAULTS.APP_REVIEW_MIN_INSTALL_HOURS,
    billingDaySeconds: env.BILLING_DAY_SECONDS ?? DEFAULTS.BILLING_DAY_SECONDS,
    /**
     * Incremental sync (DESIGN §25): cursor mode shows the changes stamped at least this long ago, so
     * that a transaction still running when a page is read (its rows stamped with its start) cannot
     * commit behind the app's cursor. 0 on PGlite, where transactions run one at a time.
     */
    syncSettleSeconds: env.SYNC_SETTLE_SECONDS ?? (databaseUrl === null ? 0 : DEFAULTS.SYNC_SETTLE_SECONDS),
    /** A bulk export running longer is FAILED (narrow it with updatedSince). */
    bulkExportTimeoutSeconds: env.BULK_EXPORT_TIMEOUT_SECONDS ?? DEFAULTS.BULK_EXPORT_TIMEOUT_SECONDS,
    /** The pieces an export file is stored in (a row each in bulk_export_chunks). */
    bulkExportChunkBytes: env.BULK_EXPORT_CHUNK_BYTES ?? DEFAULTS.BULK_EXPORT_CHUNK_BYTES,
    rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE ?? DEFAULTS.RATE_LIMIT_PER_MINUTE,
    storefrontRateLimitPerMinute: env.STOREFRONT_RATE_LIMIT_PER_MINUTE ?? DEFAULTS.STOREFRONT_RATE_LIMIT_PER_MINUTE,
    /** Fair stock (DESIGN §17): a storefront order's stock is held until its unpaid payment expires; one line takes at most maxLineQuantity. */
    checkoutRules: {
      paymentExpiryMinutes: env.PAYMENT_EXPIRY_MINUTES ?? DEFAULTS.PAYMENT_EXPIRY_MINUTES,
      maxLineQuantity: env.MAX_LINE_QUANTITY ?? DEFAULTS.MAX_LINE_QUANTITY
    },
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
    /** Timeouts of every listener (server/listener.ts). */
    listener: {
      requestTimeoutMs: env.HTTP_REQUEST_TIMEOUT_MS ?? DEFAULTS.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: env.HTTP_HEADERS_TIMEOUT_MS ?? DEFAULTS.HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: env.HTTP_KEEP_ALIVE_TIMEOUT_MS ?? DEFAULTS.HTTP_KEEP_ALIVE_TIMEOUT_MS
    },
    /** GET /metrics answers loopback, and other hosts that send this as a bearer token (null: loopback only). */
    metricsToken: env.METRICS_TOKEN ?? null as string | null,
    logLevel: env.LOG_LEVEL ?? DEFAULTS.LOG_LEVEL as string
  }
}

export type Config = ReturnType<typeof loadConfig>
