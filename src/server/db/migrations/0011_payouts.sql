CREATE TABLE "payout_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"created_by" text,
	"minimum" numeric(14, 4) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"batch_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"amount" numeric(14, 4) NOT NULL,
	"method" text NOT NULL,
	"destination" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"reference" text,
	"failure_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "payouts_batchId_userId_role_unique" UNIQUE("batch_id","user_id","role"),
	CONSTRAINT "payouts_amount" CHECK ("payouts"."amount" > 0),
	CONSTRAINT "payouts_status" CHECK ("payouts"."status" in ('processing', 'paid', 'failed')),
	CONSTRAINT "payouts_role" CHECK ("payouts"."role" in ('seller', 'reseller')),
	CONSTRAINT "payouts_method" CHECK ("payouts"."method" in ('stripe', 'bank'))
);
--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_batch_id_payout_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."payout_batches"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payouts_user_id_created_at_index" ON "payouts" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payouts_batch_id_index" ON "payouts" USING btree ("batch_id");