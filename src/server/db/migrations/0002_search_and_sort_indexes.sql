DROP INDEX "products_name_trgm";--> statement-breakpoint
DROP INDEX "products_vendor_trgm";--> statement-breakpoint
DROP INDEX "products_description_trgm";--> statement-breakpoint
DROP INDEX "products_category_index";--> statement-breakpoint
DROP INDEX "products_price_index";--> statement-breakpoint
DROP INDEX "products_rating_index";--> statement-breakpoint
DROP INDEX "products_created_at_index";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "search_text" text GENERATED ALWAYS AS (lower("products"."name" || ' ' || coalesce("products"."vendor", '') || ' ' || coalesce("products"."description", ''))) STORED;--> statement-breakpoint
CREATE INDEX "products_search_trgm" ON "products" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "products_category_price_id_index" ON "products" USING btree ("category","price","id");--> statement-breakpoint
CREATE INDEX "products_price_id_index" ON "products" USING btree ("price","id");--> statement-breakpoint
CREATE INDEX "products_rating_id_index" ON "products" USING btree ("rating" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "products_created_at_id_index" ON "products" USING btree ("created_at","id");