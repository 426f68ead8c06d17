import { defineErrors, errorHelpers } from '../../server/http-errors.ts'

/** The stable error codes of the store's own records: products, orders, pages, reviews, promo codes, checkout (DESIGN §21). */
export const ERROR_CODES = defineErrors({
  business_missing: 'The signed-in account has no business (a developer or reviewer on a merchant route)',
  business_not_found: 'No such business',
  business_timezone_unknown: 'The time zone is not a known IANA zone',
  product_not_found: 'No product with this id in the business',
  product_slug_taken: 'Another product of the business has this slug',
  product_unavailable: 'The product is not for sale (inactive, unavailable or gone)',
  product_price_changed: 'A price changed between the quote and the order; quote again',
  product_out_of_stock: 'Not enough stock for the quantity asked; `available` says how many are left',
  image_not_found: 'No such product image',
  upload_not_multipart: 'An upload must be multipart/form-data',
  upload_file_missing: 'The multipart upload holds no file',
  upload_not_image: 'The uploaded file is not a PNG, JPEG or WebP image',
  order_not_found: 'No order with this id in the business',
  order_status_unknown: 'Not one of the order statuses',
  order_transition_invalid: 'The order cannot move from its status to the one asked',
  order_changed: 'The order changed meanwhile; reload it and retry',
  order_quantity_invalid: 'An item quantity is not an integer of at least 1',
  order_quantity_too_large: 'More of one product than one order may hold',
  order_refused: "A checkout hook refused the order; `reason` is the app's",
  payment_method_unknown: 'The payment method is not offered by the store',
  payment_not_app: 'The order is not paid with an app payment method',
  payment_settled: 'The payment is no longer pending',
  payment_invoice_mismatch: "The invoice id does not match the order's payment",
  page_not_found: 'No page with this id in the business',
  page_slug_taken: 'The business already has a page with this slug',
  page_preview_too_large: 'The draft is too large to preview; save it instead',
  review_not_found: 'No review with this id in the business',
  review_product_not_found: 'The review names a product the business does not have',
  promo_code_not_found: 'No promo code with this id in the business',
  promo_code_taken: 'The business already has this promo code',
  promo_code_discount_invalid: 'A promo code takes exactly one of percentOff and amountOff',
  promo_code_not_applicable: 'The promo code does not exist, is off or has expired (`field` is promoCode)',
  promo_code_min_subtotal: 'The subtotal is below the promo code\'s minimum (`minSubtotal`)',
  updated_since_invalid: 'updatedSince is not an ISO 8601 time with its zone (e.g. 1970-01-01T00:00:00Z)',
  sync_mode_conflict: 'A list in cursor mode takes updatedSince on its first page and cursor on the next ones, never page nor both',
  dashboard_period_invalid: 'The period ends before it starts, or spans more days than allowed'
})

export const { badRequest, conflict, fieldError, forbidden, httpError, notFound, unprocessable } = errorHelpers(ERROR_CODES)
