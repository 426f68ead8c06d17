import {
  Award, Bell, Calendar, ChartColumn, ChartLine, CircleHelp, Clock, CreditCard, FileText, Gift, Globe, Heart, House, Image, Info,
  LayoutGrid, Mail, MapPin, Megaphone, MessageCircle, Package, Palette, Percent, Quote, Receipt, Search, Settings, Share2,
  ShoppingBag, ShoppingCart, Sparkles, Star, Store, Tag, ThumbsUp, Ticket, Timer, Truck, User, Users, Video, Wallet, Zap,
  type LucideIcon
} from 'lucide-preact'

type Icon = LucideIcon

/**
 * The icons a manifest's `iconName` (blocks, admin pages) can name: Lucide's own names (lucide.dev),
 * kebab-case, and a few everyday aliases. Only these are bundled; any other name draws the app's icon,
 * as an omitted one does (spec: admin pages fall back to the app icon).
 */
export const ICONS: Readonly<Record<string, Icon>> = {
  award: Award,
  bell: Bell,
  calendar: Calendar,
  'chart-column': ChartColumn,
  'chart-line': ChartLine,
  'circle-help': CircleHelp,
  clock: Clock,
  'credit-card': CreditCard,
  'file-text': FileText,
  gift: Gift,
  globe: Globe,
  heart: Heart,
  house: House,
  image: Image,
  info: Info,
  'layout-grid': LayoutGrid,
  mail: Mail,
  'map-pin': MapPin,
  megaphone: Megaphone,
  'message-circle': MessageCircle,
  package: Package,
  palette: Palette,
  percent: Percent,
  quote: Quote,
  receipt: Receipt,
  search: Search,
  settings: Settings,
  'share-2': Share2,
  'shopping-bag': ShoppingBag,
  'shopping-cart': ShoppingCart,
  sparkles: Sparkles,
  star: Star,
  store: Store,
  tag: Tag,
  'thumbs-up': ThumbsUp,
  ticket: Ticket,
  timer: Timer,
  truck: Truck,
  user: User,
  users: Users,
  video: Video,
  wallet: Wallet,
  zap: Zap,
  // everyday names for the same pictures
  cart: ShoppingCart,
  chart: ChartColumn,
  chat: MessageCircle,
  help: CircleHelp,
  home: House,
  reports: ChartColumn
}

/** The icon an `iconName` names (case and surrounding spaces ignored), or null for none or an unknown name. */
export function iconFor (name: string | null): Icon | null {
  if (name === null) return null
  const key = name.trim().toLowerCase()
  return Object.hasOwn(ICONS, key) ? ICONS[key] : null
}
