import QRCode from 'qrcode'

/**
 * An app payment's qrCode drawn on the server as an SVG data URL, so the shop page shows it with an
 * <img> (the storefront CSP allows data: images, and no script of ours draws anything). A code too
 * long for a QR symbol has no image; the page then offers the payment link and invoice id alone.
 */
export async function qrImage (text: string | undefined): Promise<string | undefined> {
  if (text === undefined || text === '') return undefined
  try {
    const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
    return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`
  } catch {
    return undefined
  }
}
