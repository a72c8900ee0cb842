CREATE TABLE "reseller_fingerprints" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"hash" text NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reseller_fingerprints_user_id_kind_hash_pk" PRIMARY KEY("user_id","kind","hash"),
	CONSTRAINT "reseller_fingerprints_kind" CHECK ("reseller_fingerprints"."kind" in ('device', 'network'))
);
--> statement-breakpoint
CREATE TABLE "sign_in_failures" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "uploads" (
	"url" text PRIMARY KEY NOT NULL,
	"owner_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "commissions" DROP CONSTRAINT "commissions_status";--> statement-breakpoint
ALTER TABLE "commissions" ADD COLUMN "hold_reasons" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "referral" jsonb;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "confirmation_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reseller_fingerprints" ADD CONSTRAINT "reseller_fingerprints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "uploads" ADD CONSTRAINT "uploads_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "uploads_owner_id_index" ON "uploads" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "orders_payment_status_updated_at_index" ON "orders" USING btree ("payment_status","updated_at");--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_status" CHECK ("commissions"."status" in ('pending', 'held', 'approved', 'cancelled'));