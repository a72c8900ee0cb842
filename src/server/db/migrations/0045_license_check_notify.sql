-- Licence checks answer from memory (decision 0028): each instance keeps what a check reads (the licence,
-- its subscription, its seats in use, and a capped subscription's use this period) and forgets it all when
-- one of those tables changes anywhere. The notice travels on the catalogue's channel and listener (one
-- LISTEN connection per instance, decision 0018), told apart by its payload `license-check:<table>`; its
-- own sequence lets an instance that has just answered a write learn at once whether it moved, as
-- catalogue_version does for the catalogue, without clearing the catalogue's answers.
CREATE SEQUENCE "license_check_version";
--> statement-breakpoint
CREATE FUNCTION "license_check_notify"(source text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('license_check_version');
  PERFORM pg_notify('catalogue_changed', 'license-check:' || source);
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "license_check_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM license_check_notify(TG_TABLE_NAME);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- A period's use matters to a check only when its subscription has a spending cap (`over_cap`): reports for
-- uncapped subscriptions, the bulk of usage ingestion, notify nobody.
CREATE FUNCTION "license_check_usage_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (
    SELECT 1 FROM new_rows n JOIN subscriptions s ON s.id = n.subscription_id WHERE s.spending_cap IS NOT NULL
  ) THEN
    PERFORM license_check_notify(TG_TABLE_NAME);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "licenses_license_check" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "licenses" FOR EACH STATEMENT EXECUTE FUNCTION "license_check_changed"();
--> statement-breakpoint
CREATE TRIGGER "subscriptions_license_check" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "subscriptions" FOR EACH STATEMENT EXECUTE FUNCTION "license_check_changed"();
--> statement-breakpoint
-- Seats in use are counted: a check-in (an update of last_seen_at) changes no answer.
CREATE TRIGGER "license_activations_license_check" AFTER INSERT OR DELETE OR TRUNCATE OR UPDATE OF "license_id" ON "license_activations" FOR EACH STATEMENT EXECUTE FUNCTION "license_check_changed"();
--> statement-breakpoint
CREATE TRIGGER "usage_periods_license_check_insert" AFTER INSERT ON "usage_periods" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "license_check_usage_changed"();
--> statement-breakpoint
CREATE TRIGGER "usage_periods_license_check_update" AFTER UPDATE ON "usage_periods" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "license_check_usage_changed"();
--> statement-breakpoint
CREATE TRIGGER "usage_periods_license_check_delete" AFTER DELETE OR TRUNCATE ON "usage_periods" FOR EACH STATEMENT EXECUTE FUNCTION "license_check_changed"();
