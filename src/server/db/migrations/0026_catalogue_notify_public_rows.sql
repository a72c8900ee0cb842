-- Writes to a listing nobody can see (pending, rejected, inactive) no longer clear the catalogue cache
-- (issue 29, item 8): every public answer reads products through onSale() (`is_active and
-- moderation_status = 'approved'`), so a statement on `products`, `product_features` or
-- `product_specifications` changes a public answer only when a row it touched was on sale before or is
-- on sale after it. Before this, a seller saving a pending listing in a loop emptied every instance's
-- cache at every save. The other catalogue tables keep notifying on every write (decision 0018).
CREATE OR REPLACE FUNCTION "catalogue_notify"(source text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('catalogue_version');
  PERFORM pg_notify('catalogue_changed', source);
END;
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "catalogue_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM catalogue_notify(TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Each branch's query is planned only when it runs, so an INSERT trigger never looks for old_rows.
CREATE FUNCTION "catalogue_products_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF EXISTS (SELECT 1 FROM old_rows WHERE is_active AND moderation_status = 'approved') THEN
      PERFORM catalogue_notify(TG_TABLE_NAME);
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF EXISTS (SELECT 1 FROM new_rows WHERE is_active AND moderation_status = 'approved') THEN
      PERFORM catalogue_notify(TG_TABLE_NAME);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Features and specifications belong to one product: they matter when that product is on sale. A product
-- deleted with its rows notifies through its own trigger.
CREATE FUNCTION "catalogue_product_rows_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF EXISTS (
      SELECT 1 FROM old_rows o JOIN products p ON p.id = o.product_id
      WHERE p.is_active AND p.moderation_status = 'approved'
    ) THEN
      PERFORM catalogue_notify(TG_TABLE_NAME);
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF EXISTS (
      SELECT 1 FROM new_rows n JOIN products p ON p.id = n.product_id
      WHERE p.is_active AND p.moderation_status = 'approved'
    ) THEN
      PERFORM catalogue_notify(TG_TABLE_NAME);
    END IF;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER "products_catalogue_changed" ON "products";
--> statement-breakpoint
-- A trigger with transition tables has one event; TRUNCATE has no rows to look at and always notifies.
CREATE TRIGGER "products_catalogue_inserted" AFTER INSERT ON "products" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_products_changed"();
--> statement-breakpoint
CREATE TRIGGER "products_catalogue_updated" AFTER UPDATE ON "products" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_products_changed"();
--> statement-breakpoint
CREATE TRIGGER "products_catalogue_deleted" AFTER DELETE ON "products" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_products_changed"();
--> statement-breakpoint
CREATE TRIGGER "products_catalogue_truncated" AFTER TRUNCATE ON "products" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
DROP TRIGGER "product_features_catalogue_changed" ON "product_features";
--> statement-breakpoint
CREATE TRIGGER "product_features_catalogue_inserted" AFTER INSERT ON "product_features" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_product_rows_changed"();
--> statement-breakpoint
CREATE TRIGGER "product_features_catalogue_updated" AFTER UPDATE ON "product_features" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_product_rows_changed"();
--> statement-breakpoint
CREATE TRIGGER "product_features_catalogue_deleted" AFTER DELETE ON "product_features" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_product_rows_changed"();
--> statement-breakpoint
CREATE TRIGGER "product_features_catalogue_truncated" AFTER TRUNCATE ON "product_features" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
DROP TRIGGER "product_specifications_catalogue_changed" ON "product_specifications";
--> statement-breakpoint
CREATE TRIGGER "product_specifications_catalogue_inserted" AFTER INSERT ON "product_specifications" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_product_rows_changed"();
--> statement-breakpoint
CREATE TRIGGER "product_specifications_catalogue_updated" AFTER UPDATE ON "product_specifications" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_product_rows_changed"();
--> statement-breakpoint
CREATE TRIGGER "product_specifications_catalogue_deleted" AFTER DELETE ON "product_specifications" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_product_rows_changed"();
--> statement-breakpoint
CREATE TRIGGER "product_specifications_catalogue_truncated" AFTER TRUNCATE ON "product_specifications" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
--> statement-breakpoint
-- Public answers read a storefront's slug only (the "by Vendor" link; the vendor's name is on the product,
-- and the storefront page is drawn afresh): a seller saving their description, website or country, or an
-- admin's badge, changes none of them. A storefront created or deleted (a slug appearing or going) does.
DROP TRIGGER "storefronts_catalogue_changed" ON "storefronts";
--> statement-breakpoint
CREATE TRIGGER "storefronts_catalogue_changed" AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "slug", "user_id" ON "storefronts" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_changed"();
