import { Type, type Static } from '@sinclair/typebox'

/** The validator's `email` format (ajv-formats), written out so the document says exactly what is accepted. */
const EMAIL_PATTERN = "^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$"
export const Email = Type.String({ format: 'email', pattern: EMAIL_PATTERN, maxLength: 254, examples: ['dev@example.com'] })
export const Password = Type.String({ minLength: 10, maxLength: 200, description: 'At least 10 characters, and not a common password' })

export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.Union([Type.Literal('DEVELOPER'), Type.Literal('MERCHANT'), Type.Literal('REVIEWER')]),
  businessId: Type.Union([Type.String(), Type.Null()], { description: "The merchant's business or the developer's sandbox" }),
  createdAt: Type.String({ format: 'date-time' })
}, { title: 'User' })
export type User = Static<typeof UserSchema>

const RegisterFields = {
  email: Email,
  password: Password,
  name: Type.String({ minLength: 1, maxLength: 100 }),
  role: Type.Union([Type.Literal('DEVELOPER'), Type.Literal('MERCHANT')]),
  businessName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Required for a MERCHANT' }))
}
/** The document states the MERCHANT rule (`if`/`then`); the handler checks it, with a message naming the field. */
export const RegisterBodySchema = Type.Object(RegisterFields, {
  additionalProperties: false,
  documentedAs: Type.Object(RegisterFields, {
    title: 'RegisterBody',
    additionalProperties: false,
    if: { type: 'object', properties: { role: { const: 'MERCHANT' } }, required: ['role'] },
    then: { type: 'object', properties: { businessName: { type: 'string', minLength: 1 } }, required: ['businessName'] }
  })
})
export type RegisterBody = Static<typeof RegisterBodySchema>

export const LoginBodySchema = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 200 })
}, { title: 'LoginBody', additionalProperties: false })
export type LoginBody = Static<typeof LoginBodySchema>

export const SessionSchema = Type.Object({
  token: Type.String({ description: 'JWT, valid 8 hours; POST /auth/logout revokes it' }),
  user: UserSchema,
  businessId: Type.Union([Type.String(), Type.Null()])
}, { title: 'Session' })

export const MeSchema = Type.Object({
  user: UserSchema,
  business: Type.Union([Type.Object({ id: Type.String(), name: Type.String(), slug: Type.String(), isSandbox: Type.Boolean() }), Type.Null()])
}, { title: 'Me' })

export const CliTokenSchema = Type.Object({
  id: Type.String({ examples: ['clit_…'] }),
  name: Type.String({ description: 'What the CLI named itself at login (its host)' }),
  createdAt: Type.String({ format: 'date-time' }),
  expiresAt: Type.String({ format: 'date-time', description: '30 days after login' }),
  lastUsedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'To the minute' })
}, { title: 'CliToken' })

export const CliTokenParams = Type.Object({ tokenId: Type.String({ minLength: 1, maxLength: 64 }) })

export const CliWhoamiSchema = Type.Object({
  user: Type.Object({ id: Type.String(), email: Type.String(), role: Type.Literal('DEVELOPER'), businessId: Type.Union([Type.String(), Type.Null()]) }),
  token: Type.Union([CliTokenSchema, Type.Null()], { description: 'The CLI token in use; null with a session JWT' })
}, { title: 'CliWhoami' })
