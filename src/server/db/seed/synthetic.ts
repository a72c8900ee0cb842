import { sql } from "drizzle-orm";
import { categories as categoryList } from "#domain/categories";
import type { Database } from "#server/db/client";
import { categories } from "#server/db/schema/catalog";

const BATCH = 10_000;

/**
 * Adds `total` generated products for benchmarks, in batches of 10,000 rows that PostgreSQL builds
 * itself with generate_series (no round trip per row). Names, vendors and prices vary so that search,
 * filters and sorting behave as on a real catalogue.
 */
export async function seedSyntheticProducts(
  db: Database,
  total: number,
  onProgress?: (done: number) => void,
) {
  await db
    .insert(categories)
    .values(categoryList.map((c) => ({ name: c.name, slug: c.slug })))
    .onConflictDoNothing({ target: categories.slug });
  for (let done = 0; done < total; done += BATCH) {
    const size = Math.min(BATCH, total - done);
    await db.execute(sql`
      insert into products (name, description, category, price, original_price, rating, reviews_count, rating_score,
        vendor, has_discount, discount_label, discount_percentage, is_active, created_at, updated_at)
      select
        (array['Cloud','Edge','Data','Secure','Rapid','Quantum','Smart','Open','Atlas','Nova'])[1 + g % 10] || ' ' ||
          (array['Analytics','Gateway','Vault','Monitor','Suite','Router','Backup','Studio','Engine','API'])[1 + (g / 10) % 10] ||
          ' ' || (g + ${done}),
        'Generated catalogue entry ' || (g + ${done}) || ' for load tests: ' ||
          (array['cloud storage with regional replicas','workflow automation for finance teams','rack server with redundant power',
                 'perpetual license with priority support','managed migration by certified engineers'])[1 + g % 5],
        (array['saas','apis','hardware','software','services'])[1 + g % 5],
        d.price,
        case when g % 3 = 0 then round(d.price * 1.25, 4) end,
        r.rating,
        r.reviews,
        -- The Bayesian score of decision 0012 (prior 3 stars weighing 5 reviews), so the rating sort's index is exercised.
        case when r.rating is not null then round((15 + r.rating * r.reviews) / (5 + r.reviews), 4) end,
        (array['Corvane Labs','Helix Systems','Northwind Data','Parallax IO','Quillstone','Brightforge','Tessaract','Lumio'])[1 + g % 8],
        g % 3 = 0,
        case when g % 3 = 0 then '20% OFF' end,
        case when g % 3 = 0 then 20 end,
        g % 20 <> 0,
        now() - (random() * interval '400 days'),
        now()
      from generate_series(1, ${size}) as g,
        lateral (select round((case when g % 5 = 1 then random() else random() * 3000 end)::numeric, 4) as price) d,
        lateral (select
          case when g % 7 = 0 then null else round((3 + random() * 2)::numeric, 1) end as rating,
          case when g % 7 = 0 then 0 else 1 + (random() * 5000)::int end as reviews) r
    `);
    onProgress?.(done + size);
  }
}
