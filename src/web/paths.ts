import { productFiltersToSearch } from "#domain/catalog";
import type { ProductListQuery } from "#domain/catalog-schemas";
import type { DashboardView } from "#domain/routes";

/** Every URL the app links to, built in one place. */
export const paths = {
  home: () => "/",
  products: (filters?: Partial<ProductListQuery>) => `/products${productFiltersToSearch(filters ?? {})}`,
  product: (id: string) => `/products/${encodeURIComponent(id)}`,
  cart: () => "/cart",
  checkout: () => "/checkout",
  invoice: (orderId: string) => `/dashboard/orders/${encodeURIComponent(orderId)}/invoice`,
  login: () => "/login",
  signup: () => "/signup",
  verify: () => "/verify",
  forgotPassword: () => "/forgot-password",
  about: () => "/about",
  contact: () => "/contact",
  faq: () => "/faq",
  privacy: () => "/privacy",
  terms: () => "/terms",
  partner: () => "/partner",
  page: (slug: string) => `/pages/${encodeURIComponent(slug)}`,
  unauthorized: () => "/unauthorized",
  dashboard: (view?: DashboardView) => (view ? `/dashboard/${view}` : "/dashboard"),
  admin: {
    products: () => "/admin/products",
    addProduct: () => "/admin/add-product",
    editProduct: (id: string) => `/admin/products/${encodeURIComponent(id)}/edit`,
    categories: () => "/admin/categories",
    pages: () => "/admin/pages",
    addPage: () => "/admin/pages/add",
    editPage: (id: string) => `/admin/pages/${encodeURIComponent(id)}`,
    content: () => "/admin/content",
    inbox: () => "/admin/inbox",
    orders: () => "/admin/orders",
    users: () => "/admin/users",
    system: () => "/admin/system",
    audit: () => "/admin/audit",
    refunds: () => "/admin/refunds",
    commissions: () => "/admin/commissions",
  },
  seller: {
    products: () => "/seller/products",
    addProduct: () => "/seller/products/new",
    editProduct: (id: string) => `/seller/products/${encodeURIComponent(id)}/edit`,
  },
  partnerSupportMail: () => "mailto:partners@stackbay.test",
} as const;
