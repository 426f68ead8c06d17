import type { businesses, products, orders, reviews, pages } from '../../server/db/schema/index.ts'
import type { Business, Order, Page, Product, Review } from './schemas.ts'

export type BusinessRow = typeof businesses.$inferSelect
export type ProductRow = typeof products.$inferSelect
export type OrderRow = typeof orders.$inferSelect
export type ReviewRow = typeof reviews.$inferSelect
export type PageRow = typeof pages.$inferSelect

/** Row → public shape: pure functions, no database access; the App API serializes with the same ones. */
export function serializeProduct (row: ProductRow): Product {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price: row.price,
    category: row.category,
    isAvailable: row.isAvailable,
    imageUrl: row.imageUrl,
    slug: row.slug,
    status: row.status as Product['status'],
    stock: row.stock,
    lowStockThreshold: row.lowStockThreshold,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

export function serializeOrder (row: OrderRow): Order {
  return {
    id: row.id,
    orderNumber: row.orderNumber,
    status: row.status,
    items: row.items.map((item) => ({ productId: item.productId, name: item.name, quantity: item.quantity, unitPrice: item.unitPrice, total: item.total })),
    subtotal: row.subtotal,
    deliveryFee: row.deliveryFee,
    discount: row.discount,
    promoCode: row.promoCode,
    promoDiscount: row.promoDiscount,
    amount: row.amount,
    currency: row.currency,
    deliveryMethod: row.deliveryMethod as Order['deliveryMethod'],
    paymentMethod: row.paymentMethod,
    paymentStatus: row.paymentStatus,
    isGuest: row.isGuest,
    customer: { name: row.customer.name, phone: row.customer.phone, email: row.customer.email },
    address: row.address,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

/** data of order.* events (DESIGN §9): the spec's order.created fields plus status. */
export function orderEventData (row: OrderRow) {
  return {
    orderId: row.id,
    orderNumber: row.orderNumber,
    amount: row.amount,
    deliveryFee: row.deliveryFee,
    deliveryMethod: row.deliveryMethod,
    paymentMethod: row.paymentMethod,
    isGuest: row.isGuest,
    createdAt: row.createdAt.toISOString(),
    status: row.status
  }
}

export function serializeReview (row: ReviewRow): Review {
  return {
    id: row.id,
    productId: row.productId,
    rating: row.rating,
    text: row.text,
    authorName: row.authorName,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString()
  }
}

export function serializePage (row: PageRow): Page {
  return { id: row.id, slug: row.slug, title: row.title, isPublished: row.isPublished, blocks: row.blocks, updatedAt: row.updatedAt.toISOString() }
}

export function serializeBusiness (row: BusinessRow): Business {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    type: row.type,
    address: row.address,
    currency: row.currency,
    locale: row.locale,
    timezone: row.timezone,
    email: row.email,
    phone: row.phone
  }
}
