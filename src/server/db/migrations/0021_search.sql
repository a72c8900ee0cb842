CREATE EXTENSION IF NOT EXISTS unaccent;--> statement-breakpoint
-- unaccent() is only STABLE (its dictionary could change); a generated column and its index need an
-- IMMUTABLE function, and the dictionary named explicitly keeps the result independent of search_path.
CREATE OR REPLACE FUNCTION immutable_unaccent(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT public.unaccent('public.unaccent'::regdictionary, $1) $$;--> statement-breakpoint
CREATE TABLE "search_synonyms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"term" text NOT NULL,
	"synonyms" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "search_synonyms_term_unique" UNIQUE("term"),
	CONSTRAINT "search_synonyms_not_empty" CHECK (cardinality("search_synonyms"."synonyms") > 0)
);
--> statement-breakpoint
ALTER TABLE "products" drop column "search_text";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_text" text GENERATED ALWAYS AS (immutable_unaccent(lower("products"."name" || ' ' || coalesce("products"."vendor", '') || ' ' || coalesce("products"."description", '')))) STORED;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_name" text GENERATED ALWAYS AS (immutable_unaccent(lower("products"."name" || ' ' || coalesce("products"."vendor", '')))) STORED;--> statement-breakpoint
CREATE INDEX "products_search_name_trgm" ON "products" USING gin ("search_name" gin_trgm_ops);--> statement-breakpoint
-- Dropping the column dropped its index.
CREATE INDEX "products_search_trgm" ON "products" USING gin ("search_text" gin_trgm_ops);
--> statement-breakpoint
-- Synonyms change what a search finds: every instance forgets its cached answers and its synonyms.
CREATE TRIGGER "search_synonyms_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "search_synonyms" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
