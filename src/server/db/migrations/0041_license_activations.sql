CREATE TABLE "license_activations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"license_id" uuid NOT NULL,
	"machine" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"activated_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	CONSTRAINT "license_activations_licenseId_machine_unique" UNIQUE("license_id","machine")
);
--> statement-breakpoint
ALTER TABLE "licenses" DROP CONSTRAINT "licenses_status";--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "seats" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "licenses" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "license_activations" ADD CONSTRAINT "license_activations_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "license_activations_last_seen_at_index" ON "license_activations" USING btree ("last_seen_at");--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_seats" CHECK ("licenses"."seats" >= 1);--> statement-breakpoint
ALTER TABLE "licenses" ADD CONSTRAINT "licenses_status" CHECK ("licenses"."status" in ('active', 'suspended', 'revoked'));