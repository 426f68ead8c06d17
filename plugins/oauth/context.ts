import type { Db } from '../../server/db/client.ts'
import type { Clock } from '../../server/clock.ts'
import type { AppsService } from '../apps/service.ts'
import type { InstallationsService } from '../installations/service.ts'
import type { CommerceService } from '../commerce/service.ts'
import type { AuthService } from '../auth/service.ts'

/** What the oauth service's functions run against: the database, the clock and the capabilities it asks. */
export interface OAuthContext {
  executor: Db
  clock: Clock
  apps: AppsService
  installations: InstallationsService
  commerce: CommerceService
  auth: AuthService
  /** ADMIN_URL, read when a token is issued (the admin_return_url's origin). */
  adminUrl: () => string
}
