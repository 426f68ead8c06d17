import { AnalyticsQuerySchema, AppAnalyticsSchema, LiveEventSchema } from '../../sdk/src/contract/console.ts'

// what the console answers with is the contract's (sdk/src/contract/console.ts), which the admin UI reads too
export { AppAnalyticsSchema as AnalyticsSchema, AnalyticsQuerySchema as AnalyticsQuery, LiveEventSchema }
