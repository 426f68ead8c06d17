/// <reference types="vite/client" />

declare module 'virtual:manifest-schema' {
  /** The published manifest JSON Schema (draft-07), cut from openapi/openapi.json at build time. */
  const schema: Record<string, unknown>
  export default schema
}
