import type { DeveloperApp } from '../../lib/types.ts'

/**
 * What a section of the app page gets: the app as last loaded, and a way to ask for a fresh copy after
 * a write. Apart from index.tsx, which imports the sections, so that no import circle forms.
 */
export interface SectionProps { app: DeveloperApp, reload: () => void }
