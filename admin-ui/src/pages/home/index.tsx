import { useSession } from '../../lib/use-session.tsx'

const ROLE_TEXT = {
  DEVELOPER: 'Build apps, test them on your sandbox business and submit them for review.',
  MERCHANT: 'Install apps on your business and manage your store.',
  REVIEWER: 'Review submitted apps.'
} as const

export default function Home () {
  const { session } = useSession()
  return (
    <section>
      <h1>App Platform</h1>
      {session === null
        ? <p>Apps for merchants, built by developers. <a href="/login">Log in</a> or <a href="/register">create an account</a>.</p>
        : <p data-testid="welcome">Signed in as <strong>{session.user.name}</strong> ({session.user.role}). {ROLE_TEXT[session.user.role]}</p>}
    </section>
  )
}
