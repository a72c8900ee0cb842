CREATE TABLE "retired_storefront_slugs" (
	"slug" text PRIMARY KEY NOT NULL,
	"retired_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- A deleted storefront's slug is retired, whatever deleted it (an account deletion's cascade, an admin's
-- SQL), so the next seller of the same name gets `-2` rather than the old links (issue 29, low 5).
CREATE FUNCTION "retire_storefront_slug"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO retired_storefront_slugs (slug) VALUES (OLD.slug) ON CONFLICT DO NOTHING;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "storefronts_retire_slug" AFTER DELETE ON "storefronts" FOR EACH ROW EXECUTE FUNCTION "retire_storefront_slug"();
