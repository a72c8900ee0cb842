CREATE TABLE "reseller_fingerprints" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"hash" text NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reseller_fingerprints_user_id_kind_hash_pk" PRIMARY KEY("user_id","kind","hash"),
	CONSTRAINT "reseller_fingerprints_kind" CHECK ("reseller_fingerprints"."kind" in ('device', 'network'))
);
--> statement-breakpoint
ALTER TABLE "commissions" DROP CONSTRAINT "commissions_status";--> statement-breakpoint
ALTER TABLE "commissions" ADD COLUMN "hold_reasons" jsonb;--> statement-breakpoint
ALTER TABLE "reseller_fingerprints" ADD CONSTRAINT "reseller_fingerprints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commissions" ADD CONSTRAINT "commissions_status" CHECK ("commissions"."status" in ('pending', 'held', 'approved', 'cancelled'));