import { eq, sql } from 'drizzle-orm'
import { businesses, products, orders, reviews, pages, type OrderItem, type OrderStatus } from '../../server/db/schema/index.ts'
import type { Executor } from '../../server/db/client.ts'
import { newId } from '../../server/db/ids.ts'
import { slugify } from './businesses.ts'
import { catalogChanged } from './catalog-cache.ts'

const PRODUCTS = [
  { name: 'Margherita Pizza', category: 'Pizza', price: 1150, stock: 40, description: 'Tomato, mozzarella, basil.' },
  { name: 'Pepperoni Pizza', category: 'Pizza', price: 1350, stock: 35, description: 'Tomato, mozzarella, pepperoni.' },
  { name: 'Caesar Salad', category: 'Salads', price: 890, stock: 20, description: 'Romaine, parmesan, croutons.' },
  { name: 'Lemonade', category: 'Drinks', price: 350, stock: 100, description: 'Fresh lemons, cane sugar.' },
  { name: 'Tiramisu', category: 'Desserts', price: 650, stock: 4, description: 'Mascarpone, espresso, cocoa.' },
  { name: 'Garlic Bread', category: 'Sides', price: 450, stock: 0, description: 'Baked daily.' }
]

const ORDER_PLAN: Array<{ status: OrderStatus, lines: Array<[number, number]>, daysAgo: number }> = [
  { status: 'DELIVERED', lines: [[0, 2], [3, 2]], daysAgo: 6 },
  { status: 'DELIVERED', lines: [[1, 1], [4, 1]], daysAgo: 4 },
  { status: 'CANCELLED', lines: [[2, 1]], daysAgo: 3 },
  { status: 'PREPARING', lines: [[0, 1], [1, 1], [3, 3]], daysAgo: 1 },
  { status: 'PENDING', lines: [[2, 2]], daysAgo: 0 }
]

const REVIEWS: Array<[number, number, string, string]> = [
  [0, 5, 'Best margherita in town.', 'Ana'],
  [0, 4, 'Great crust, a bit salty.', 'Ben'],
  [1, 5, 'Spicy and generous.', 'Chloe'],
  [2, 3, 'Fine, dressing on the side would help.', 'Dev'],
  [4, 5, 'Light and not too sweet.', 'Eli'],
  [3, 4, 'Refreshing.', 'Fay']
]

/** Sample products, orders, reviews and pages, so a sandbox or demo business has data to call. */
export async function seedSampleCommerce (executor: Executor, businessId: string, at: Date): Promise<void> {
  const now = at.getTime()
  const productRows = PRODUCTS.map((p, i) => ({
    id: newId('prod'),
    businessId,
    name: p.name,
    description: p.description,
    price: p.price,
    category: p.category,
    slug: slugify(p.name),
    stock: p.stock,
    isAvailable: p.stock > 0,
    imageUrl: `/media/samples/${slugify(p.name)}.svg`,
    createdAt: new Date(now - (30 - i) * 86_400_000)
  }))
  await executor.insert(products).values(productRows)
  await catalogChanged(executor, businessId)

  const orderRows = ORDER_PLAN.map((plan, i) => {
    const items: OrderItem[] = plan.lines.map(([index, quantity]) => {
      const product = productRows[index]
      return { productId: product.id, name: product.name, quantity, unitPrice: product.price, total: product.price * quantity }
    })
    const subtotal = items.reduce((sum, item) => sum + item.total, 0)
    const deliveryFee = i % 2 === 0 ? 300 : 0
    const createdAt = new Date(now - plan.daysAgo * 86_400_000)
    return {
      id: newId('ord'),
      businessId,
      orderNumber: String(1001 + i),
      status: plan.status,
      items,
      subtotal,
      deliveryFee,
      amount: subtotal + deliveryFee,
      currency: 'USD',
      deliveryMethod: deliveryFee > 0 ? 'DELIVERY' : 'PICKUP',
      paymentMethod: i % 2 === 0 ? 'CARD' : 'CASH',
      paymentStatus: plan.status === 'CANCELLED' ? 'CANCELLED' as const : 'COMPLETED' as const,
      isGuest: true,
      customer: { name: `Customer ${i + 1}`, phone: `+1555010${i}`, email: `customer${i + 1}@example.com` },
      address: deliveryFee > 0 ? `${10 + i} Main Street` : '',
      createdAt,
      updatedAt: createdAt
    }
  })
  await executor.insert(orders).values(orderRows)
  await executor.update(businesses).set({ lastOrderNumber: sql`${businesses.lastOrderNumber} + ${orderRows.length}` }).where(eq(businesses.id, businessId))

  await executor.insert(reviews).values(REVIEWS.map(([index, rating, text, authorName], i) => ({
    id: newId('rev'), businessId, productId: productRows[index].id, rating, text, authorName, createdAt: new Date(now - (10 - i) * 86_400_000)
  })))

  // the home page came with the business (createBusiness)
  await executor.insert(pages).values([
    { id: newId('page'), businessId, slug: 'about', title: 'About us', isPublished: true, blocks: [] }
  ])
}
