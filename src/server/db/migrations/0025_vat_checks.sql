CREATE TABLE "vat_checks" (
	"vat_number" text PRIMARY KEY NOT NULL,
	"register" text NOT NULL,
	"reference" text,
	"checked_at" timestamp with time zone NOT NULL,
	CONSTRAINT "vat_checks_register" CHECK ("vat_checks"."register" in ('VIES', 'HMRC'))
);
--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_check_register" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_check_status" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_check_reference" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "vat_checked_at" timestamp with time zone;