CREATE TABLE "storefronts" (
	"user_id" text PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"logo_url" text,
	"description" text,
	"website" text,
	"country" text,
	"is_verified" boolean DEFAULT false NOT NULL,
	"verified_by" text,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "storefronts_slug_unique" UNIQUE("slug"),
	CONSTRAINT "storefronts_slug_format" CHECK ("storefronts"."slug" ~ '^[a-z0-9]+(-[a-z0-9]+)*$')
);
--> statement-breakpoint
ALTER TABLE "storefronts" ADD CONSTRAINT "storefronts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storefronts" ADD CONSTRAINT "storefronts_verified_by_users_id_fk" FOREIGN KEY ("verified_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
-- Every existing seller gets a storefront named after the vendor most of their products already show
-- (else their own name), so "by …" reads the same after the migration. Slugs follow src/domain/storefronts.ts;
-- a name already taken gets the start of the user id appended.
WITH named AS (
	SELECT u."id" AS user_id,
		coalesce(
			(SELECT p."vendor" FROM "products" p
				WHERE p."seller_id" = u."id" AND nullif(trim(p."vendor"), '') IS NOT NULL
				GROUP BY p."vendor" ORDER BY count(*) DESC, p."vendor" LIMIT 1),
			nullif(trim(coalesce(u."first_name", '') || ' ' || coalesce(u."last_name", '')), ''),
			nullif(trim(u."name"), ''),
			'Vendor'
		) AS name,
		u."created_at"
	FROM "users" u
	WHERE u."is_seller"
), slugged AS (
	SELECT user_id, left(name, 80) AS name, created_at,
		coalesce(nullif(trim(both '-' from left(regexp_replace(lower(name), '[^a-z0-9]+', '-', 'g'), 60)), ''), 'vendor') AS base
	FROM named
), numbered AS (
	SELECT *, row_number() OVER (PARTITION BY base ORDER BY created_at, user_id) AS n FROM slugged
)
INSERT INTO "storefronts" ("user_id", "slug", "name")
SELECT user_id,
	CASE WHEN n = 1 THEN base ELSE base || '-' || lower(regexp_replace(left(user_id, 8), '[^a-zA-Z0-9]', '', 'g')) END,
	name
FROM numbered;
--> statement-breakpoint
UPDATE "products" p SET "vendor" = s."name" FROM "storefronts" s WHERE p."seller_id" = s."user_id";
