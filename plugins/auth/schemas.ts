import { Type, type Static } from '@sinclair/typebox'
import { StringEnum } from '../../sdk/src/contract/schemas.ts'
import { BUSINESS_ROLES, PERMISSIONS } from '../../sdk/src/contract/staff.ts'

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
  businessName: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Required for a MERCHANT, unless joining a business by invitation' })),
  invitationToken: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: "A staff invitation's token (the end of its link): the new account joins that business as STAFF instead of getting one of its own" }))
}
/** The document states the MERCHANT rule (`if`/`then`); the handler checks it, with a message naming the field. */
export const RegisterBodySchema = Type.Object(RegisterFields, {
  additionalProperties: false,
  documentedAs: Type.Object(RegisterFields, {
    title: 'RegisterBody',
    additionalProperties: false,
    if: { type: 'object', properties: { role: { const: 'MERCHANT' } }, required: ['role'], not: { required: ['invitationToken'] } },
    then: { type: 'object', properties: { businessName: { type: 'string', minLength: 1 } }, required: ['businessName'] }
  })
})
export type RegisterBody = Static<typeof RegisterBodySchema>

export const LoginBodySchema = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 200 })
}, { title: 'LoginBody', additionalProperties: false })
export type LoginBody = Static<typeof LoginBodySchema>

const PermissionList = Type.Array(StringEnum(PERMISSIONS), { uniqueItems: true, maxItems: PERMISSIONS.length })

/** A business the user belongs to, with their place in it (DESIGN §24). */
export const SessionBusinessSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  slug: Type.String(),
  isSandbox: Type.Boolean(),
  role: StringEnum(BUSINESS_ROLES, { description: 'OWNER: the merchant account that created it; STAFF: a member who joined by invitation' }),
  permissions: Type.Array(StringEnum(PERMISSIONS), { description: 'What the user may use there (the owner: everything)' })
}, { title: 'SessionBusiness' })

export const SessionSchema = Type.Object({
  token: Type.String({ description: 'JWT, valid 8 hours; POST /auth/logout revokes it' }),
  user: UserSchema,
  businessId: Type.Union([Type.String(), Type.Null()], { description: 'The business the session acts on' }),
  business: Type.Union([SessionBusinessSchema, Type.Null()])
}, { title: 'Session' })

export const MeSchema = Type.Object({
  user: UserSchema,
  business: Type.Union([SessionBusinessSchema, Type.Null()], { description: "The session's business" })
}, { title: 'Me' })

export const BusinessListSchema = Type.Object({ data: Type.Array(SessionBusinessSchema) }, { title: 'BusinessList' })
export const SwitchBusinessBodySchema = Type.Object({ businessId: Type.String({ minLength: 1, maxLength: 64 }) }, { title: 'SwitchBusinessBody', additionalProperties: false })

export const InvitationTokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) })
export const InvitationInfoSchema = Type.Object({
  businessName: Type.String(),
  email: Type.String(),
  permissions: Type.Array(StringEnum(PERMISSIONS)),
  expiresAt: Type.String({ format: 'date-time' })
}, { title: 'InvitationInfo' })

export const InvitationSchema = Type.Object({
  id: Type.String({ examples: ['inv_…'] }),
  email: Type.String(),
  permissions: Type.Array(StringEnum(PERMISSIONS)),
  expiresAt: Type.String({ format: 'date-time', description: '7 days after it was sent' }),
  link: Type.String({ description: '{admin_url}/invite/<token>: single use' })
}, { title: 'StaffInvitation' })

export const StaffMemberSchema = Type.Object({
  memberId: Type.Union([Type.String(), Type.Null()], { description: 'null for the owner, who cannot be edited or removed' }),
  userId: Type.String(),
  email: Type.String(),
  name: Type.String(),
  role: StringEnum(BUSINESS_ROLES),
  permissions: Type.Array(StringEnum(PERMISSIONS))
}, { title: 'StaffMember' })

export const StaffSchema = Type.Object({ members: Type.Array(StaffMemberSchema), invitations: Type.Array(InvitationSchema) }, { title: 'Staff' })
export const InviteBodySchema = Type.Object({ email: Email, permissions: PermissionList }, { title: 'InviteBody', additionalProperties: false })
export const InvitedSchema = Type.Object({
  invitation: InvitationSchema,
  emailed: Type.Boolean({ description: 'Whether the link was mailed (SMTP_URL set and the server took it); otherwise give the link yourself' })
}, { title: 'Invited' })
export const MemberBodySchema = Type.Object({ permissions: PermissionList }, { title: 'MemberBody', additionalProperties: false })
export const MemberParams = Type.Object({ memberId: Type.String({ minLength: 1, maxLength: 64 }) })
export const InvitationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })

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
