/**
 * The sandbox of the admin's storefront preview frames (theme editor, Embeds), DESIGN §21: scripts,
 * forms and popups run as on the store, but never allow-top-navigation, so an app's script in the
 * preview cannot navigate the merchant's admin tab. allow-same-origin stays: the storefront page keeps
 * its own origin (never the admin's, so it gains nothing over the admin), which its block frames'
 * messages and the editor's targeted postMessage need; an opaque origin would break both.
 */
export const PREVIEW_SANDBOX = 'allow-scripts allow-forms allow-popups allow-same-origin'
