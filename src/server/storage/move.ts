import { getTableName, type SQL, sql } from "drizzle-orm";
import type { Database } from "#server/db/client";
import { user } from "#server/db/schema/auth";
import { contentTypeOf, type FileStorage, LOCAL_URL_PREFIX } from "#server/storage/storage";

export type MoveReport = {
  /** Files copied into the bucket by this run. */
  copied: number;
  /** Files the bucket already held (an earlier run copied them). */
  alreadyThere: number;
  /** Rows whose stored `/uploads/...` URLs now point at the bucket, per `table.column`. */
  rewritten: Record<string, number>;
};

/**
 * Every place the database keeps an upload's URL, as the SQL that rewrites the `/uploads/...` ones to
 * `base/...` and returns one row per row changed. Audit history keeps the URLs it recorded.
 */
function rewrites(base: string): [table: string, [column: string, SQL][]][] {
  const prefix = `${LOCAL_URL_PREFIX}/`;
  const like = `${prefix}%`;
  const from = prefix.length + 1;
  const url = (column: SQL | ReturnType<typeof sql.identifier>) =>
    sql`${base}::text || '/' || substr(${column}, ${from}::int)`;
  const column = (table: string, name: string): [string, SQL] => [
    `${table}.${name}`,
    sql`update ${sql.identifier(table)} set ${sql.identifier(name)} = ${url(sql.identifier(name))}
        where ${sql.identifier(name)} like ${like} returning 1`,
  ];
  // Rich text: only image sources, the one way an upload gets into page HTML.
  const html = (table: string): [string, SQL] => [
    `${table}.content`,
    sql`update ${sql.identifier(table)}
        set content = replace(content, ${`src="${prefix}`}::text, ${`src="${base}/`}::text)
        where content like ${`%src="${prefix}%`} returning 1`,
  ];
  return [
    ["uploads", [column("uploads", "url")]],
    [
      "products",
      [
        [
          "products.images",
          sql`update products set images = array(
                select case when image like ${like} then ${url(sql`image`)} else image end
                from unnest(images) with ordinality as i(image, n) order by n)
              where exists (select 1 from unnest(images) as i(image) where image like ${like}) returning 1`,
        ],
        column("products", "image_url"),
      ],
    ],
    ["storefronts", [column("storefronts", "logo_url")]],
    ["order_items", [column("order_items", "image_url")]],
    [getTableName(user), [column(getTableName(user), "image")]],
    [
      "site_pages",
      [
        html("site_pages"),
        [
          "site_pages.seo_meta",
          sql`update site_pages
              set seo_meta = jsonb_set(seo_meta, '{og_image_url}', to_jsonb(${url(sql`(seo_meta->>'og_image_url')`)}))
              where seo_meta->>'og_image_url' like ${like} returning 1`,
        ],
      ],
    ],
    ["site_content_blocks", [html("site_content_blocks")]],
  ];
}

/**
 * Copies every file of the local uploads into the target storage, then rewrites the stored URLs to the
 * target's public ones, one transaction per table. Running it again copies nothing new and rewrites no
 * row (no `/uploads/` URL is left), so an interrupted move is finished by running it again.
 */
export async function moveUploads(
  db: Database,
  from: FileStorage,
  to: FileStorage,
  targetBaseUrl: string,
  progress: (line: string) => void = () => {},
): Promise<MoveReport> {
  const existing = new Set<string>();
  for await (const key of to.list()) existing.add(key);
  let copied = 0;
  let alreadyThere = 0;
  for await (const key of from.list()) {
    if (existing.has(key)) {
      alreadyThere++;
      continue;
    }
    await to.put(key, await from.get(key), contentTypeOf(key));
    copied++;
    progress(`copied ${key}`);
  }
  const base = targetBaseUrl.replace(/\/+$/, "");
  const rewritten: Record<string, number> = {};
  for (const [, statements] of rewrites(base)) {
    await db.transaction(async (tx) => {
      for (const [name, statement] of statements) {
        const { rows } = (await tx.execute(statement)) as unknown as { rows: unknown[] };
        rewritten[name] = rows.length;
      }
    });
  }
  for (const [name, count] of Object.entries(rewritten)) progress(`${name}: ${count} row(s) rewritten`);
  return { copied, alreadyThere, rewritten };
}
