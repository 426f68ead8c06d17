import { Type, type Static } from '@sinclair/typebox'

export const Email = Type.String({ format: 'email', maxLength: 254, examples: ['dev@example.com'] })
export const Password = Type.String({ minLength: 8, maxLength: 200, description: 'At least 8 characters' })

export const UserSchema = Type.Object({
  id: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: Type.Union([Type.Literal('DEVELOPER'), Type.Literal('MERCHANT'), Type.Literal('REVIEWER')]),
  businessId: Type.Union([Type.String(), Type.Null()], { description: "The merchant's business or the developer's sandbox" }),
  createdAt: Type.String({ format: 'date-time' })
}, { title: 'User' })
export type User = Static<typeof UserSchema>

export const RegisterBodySchema = Type.Object({
  email: Email,
  password: Password,
  name: Type.String({ minLength: 1, maxLength: 100 }),
  role: Type.Union([Type.Literal('DEVELOPER'), Type.Literal('MERCHANT')]),
  businessName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Required for a MERCHANT' }))
}, { title: 'RegisterBody', additionalProperties: false })
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
