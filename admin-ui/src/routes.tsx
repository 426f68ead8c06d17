import { Router, Route, lazy } from 'preact-iso'

const Home = lazy(() => import('./pages/home/index.tsx'))
const Login = lazy(() => import('./pages/login/index.tsx'))
const Register = lazy(() => import('./pages/register/index.tsx'))
const Consent = lazy(() => import('./pages/consent/index.tsx'))
const AdminHome = lazy(() => import('./pages/admin/index.tsx'))
const AdminApps = lazy(() => import('./pages/admin-apps/index.tsx'))
const AdminProducts = lazy(() => import('./pages/admin-products/index.tsx'))
const AdminProduct = lazy(() => import('./pages/admin-product/index.tsx'))
const AdminOrders = lazy(() => import('./pages/admin-orders/index.tsx'))
const AdminOrder = lazy(() => import('./pages/admin-order/index.tsx'))
const AdminActivity = lazy(() => import('./pages/admin-activity/index.tsx'))
const AdminReviews = lazy(() => import('./pages/admin-reviews/index.tsx'))
const AdminBusiness = lazy(() => import('./pages/admin-business/index.tsx'))
const AdminBilling = lazy(() => import('./pages/admin-billing/index.tsx'))
const AdminCharge = lazy(() => import('./pages/admin-charge/index.tsx'))
const AdminSettings = lazy(() => import('./pages/admin-settings/index.tsx'))
const AdminStaff = lazy(() => import('./pages/admin-staff/index.tsx'))
const Invite = lazy(() => import('./pages/invite/index.tsx'))
const AdminAppPage = lazy(() => import('./pages/admin-app-page/index.tsx'))
const AdminConsent = lazy(() => import('./pages/admin-consent/index.tsx'))
const AdminEmbeds = lazy(() => import('./pages/admin-embeds/index.tsx'))
const AdminPages = lazy(() => import('./pages/admin-pages/index.tsx'))
const PageEditor = lazy(() => import('./pages/page-editor/index.tsx'))
const AppListing = lazy(() => import('./pages/app-listing/index.tsx'))
const PortalApps = lazy(() => import('./pages/portal-apps/index.tsx'))
const PortalNewApp = lazy(() => import('./pages/portal-new-app/index.tsx'))
const PortalApp = lazy(() => import('./pages/portal-app/index.tsx'))
const ReviewQueue = lazy(() => import('./pages/review-queue/index.tsx'))
const ReviewApp = lazy(() => import('./pages/review-app/index.tsx'))
const Device = lazy(() => import('./pages/device/index.tsx'))
const NotFound = lazy(() => import('./pages/not-found/index.tsx'))

export function AppRoutes () {
  return (
    <Router>
      <Route path='/' component={Home} />
      <Route path='/login' component={Login} />
      <Route path='/register' component={Register} />
      <Route path='/oauth/authorize' component={Consent} />
      <Route path='/admin' component={AdminHome} />
      <Route path='/admin/apps' component={AdminApps} />
      <Route path='/admin/products' component={AdminProducts} />
      <Route path='/admin/products/new' component={AdminProduct} />
      <Route path='/admin/products/:id' component={AdminProduct} />
      <Route path='/admin/orders' component={AdminOrders} />
      <Route path='/admin/orders/:id' component={AdminOrder} />
      <Route path='/admin/activity' component={AdminActivity} />
      <Route path='/admin/reviews' component={AdminReviews} />
      <Route path='/admin/settings' component={AdminBusiness} />
      <Route path='/admin/staff' component={AdminStaff} />
      <Route path='/admin/billing' component={AdminBilling} />
      <Route path='/admin/charges/:id' component={AdminCharge} />
      <Route path='/admin/apps/:installationId/settings' component={AdminSettings} />
      <Route path='/admin/apps/:installationId/pages/:pageId' component={AdminAppPage} />
      <Route path='/admin/apps/:installationId/consent' component={AdminConsent} />
      <Route path='/admin/apps/:installationId/embeds' component={AdminEmbeds} />
      <Route path='/admin/pages' component={AdminPages} />
      <Route path='/admin/pages/:slug' component={PageEditor} />
      <Route path='/apps/:slug' component={AppListing} />
      <Route path='/portal' component={PortalApps} />
      <Route path='/portal/apps/new' component={PortalNewApp} />
      <Route path='/portal/apps/:appId' component={PortalApp} />
      <Route path='/portal/apps/:appId/:tab' component={PortalApp} />
      <Route path='/reviewer' component={ReviewQueue} />
      <Route path='/reviewer/apps/:appId' component={ReviewApp} />
      <Route path='/device' component={Device} />
      <Route path='/invite/:token' component={Invite} />
      <Route default component={NotFound} />
    </Router>
  )
}
