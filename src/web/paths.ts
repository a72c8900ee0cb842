import type { CategorySlug } from "#domain/categories";
import type { DashboardView } from "#domain/routes";

/** Every URL the app links to, built in one place. */
export const paths = {
  home: () => "/",
  products: (filters?: { search?: string; category?: CategorySlug | "all"; discount?: boolean }) => {
    const query = new URLSearchParams();
    if (filters?.search) query.set("search", filters.search);
    if (filters?.category && filters.category !== "all") query.set("category", filters.category);
    if (filters?.discount) query.set("discount", "1");
    const text = query.toString();
    return text ? `/products?${text}` : "/products";
  },
  product: (id: string) => `/products/${encodeURIComponent(id)}`,
  cart: () => "/cart",
  checkout: () => "/checkout",
  login: () => "/login",
  signup: () => "/signup",
  verify: () => "/verify",
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
  },
  partnerSupportMail: () => "mailto:partners@stackbay.test",
} as const;
