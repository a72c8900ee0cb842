import { ProductCard, ProductCardSkeletons } from "#web/features/catalog/components/product-card";
import { useRelated } from "#web/features/compare/api/get-related";

/**
 * "Related products" under a product page. The section is extra: with nothing related, or when the
 * list cannot be loaded, the page simply ends without it rather than showing an empty or broken block.
 */
export function RelatedProducts({ productId }: { productId: string }) {
  const related = useRelated(productId);
  if (related.isError || (related.isSuccess && related.data.items.length === 0)) return null;
  return (
    <section aria-labelledby="related-heading" className="mt-12" aria-busy={related.isPending}>
      <h2 id="related-heading" className="text-xl font-semibold">
        Related products
      </h2>
      <div className="mt-4 grid gap-6 sm:grid-cols-2 lg:grid-cols-4" data-testid="related-products">
        {related.isPending ? (
          <ProductCardSkeletons count={4} />
        ) : (
          related.data.items.map((product) => <ProductCard key={product.id} product={product} />)
        )}
      </div>
    </section>
  );
}
