-- Every write to a table that a public catalogue answer reads tells every server instance, in the same
-- transaction (delivered at commit, dropped on rollback), so no write path can forget to (decision 0018).
-- Once per statement, not per row: a bulk import sends one notification, and PostgreSQL folds identical
-- notifications of one transaction into one.
CREATE FUNCTION "catalogue_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalogue_changed', TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "products_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "product_features_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_features" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "product_specifications_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "product_specifications" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "categories_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "categories" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "storefronts_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "storefronts" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "fx_rates_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "fx_rates" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "site_content_blocks_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "site_content_blocks" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
CREATE TRIGGER "featured_products_catalogue_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "featured_products" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
