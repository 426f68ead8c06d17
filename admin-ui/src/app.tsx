import { LocationProvider } from 'preact-iso'
import { SessionProvider } from './lib/use-session.tsx'
import { Layout } from './components/layout/index.tsx'
import { AppRoutes } from './routes.tsx'

/** Providers, composed once. */
export function App () {
  return (
    <LocationProvider>
      <SessionProvider>
        <Layout>
          <AppRoutes />
        </Layout>
      </SessionProvider>
    </LocationProvider>
  )
}
