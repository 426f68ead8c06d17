import { Router, Route, lazy } from 'preact-iso'

const Home = lazy(() => import('./pages/home/index.tsx'))
const Login = lazy(() => import('./pages/login/index.tsx'))
const Register = lazy(() => import('./pages/register/index.tsx'))
const Consent = lazy(() => import('./pages/consent/index.tsx'))
const AdminHome = lazy(() => import('./pages/admin/index.tsx'))
const AdminSettings = lazy(() => import('./pages/admin-settings/index.tsx'))
const AdminAppPage = lazy(() => import('./pages/admin-app-page/index.tsx'))
const NotFound = lazy(() => import('./pages/not-found/index.tsx'))

export function AppRoutes () {
  return (
    <Router>
      <Route path="/" component={Home} />
      <Route path="/login" component={Login} />
      <Route path="/register" component={Register} />
      <Route path="/oauth/authorize" component={Consent} />
      <Route path="/admin" component={AdminHome} />
      <Route path="/admin/apps/:installationId/settings" component={AdminSettings} />
      <Route path="/admin/apps/:installationId/pages/:pageId" component={AdminAppPage} />
      <Route default component={NotFound} />
    </Router>
  )
}
