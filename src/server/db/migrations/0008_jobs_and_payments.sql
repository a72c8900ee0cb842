CREATE TABLE "payment_events" (
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kind" text NOT NULL,
	"order_id" uuid,
	CONSTRAINT "payment_events_provider_event_id_pk" PRIMARY KEY("provider","event_id")
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"provider_ref" text,
	"attempt" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payments_orderId_attempt_unique" UNIQUE("order_id","attempt"),
	CONSTRAINT "payments_provider_providerRef_unique" UNIQUE("provider","provider_ref"),
	CONSTRAINT "payments_state" CHECK ("payments"."state" in ('pending', 'paid', 'failed', 'cancelled', 'expired')),
	CONSTRAINT "payments_provider" CHECK ("payments"."provider" in ('test', 'stripe', 'paypal'))
);
--> statement-breakpoint
CREATE TABLE "test_payment_sessions" (
	"ref" text PRIMARY KEY NOT NULL,
	"idempotency_key" text NOT NULL,
	"order_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"description" text NOT NULL,
	"return_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"refunds" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "test_payment_sessions_idempotencyKey_unique" UNIQUE("idempotency_key"),
	CONSTRAINT "test_payment_sessions_state" CHECK ("test_payment_sessions"."state" in ('pending', 'paid', 'failed', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "job_runs" (
	"queue" text PRIMARY KEY NOT NULL,
	"last_started_at" timestamp with time zone NOT NULL,
	"last_finished_at" timestamp with time zone,
	"last_outcome" text NOT NULL,
	"last_error" text,
	"runs" integer DEFAULT 0 NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payment_events" ADD CONSTRAINT "payment_events_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payments_state_created_at_index" ON "payments" USING btree ("state","created_at");--> statement-breakpoint
ALTER TABLE "orders" DROP COLUMN "confirmation_due_at";