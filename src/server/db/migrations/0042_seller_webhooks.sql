CREATE TABLE "seller_webhook_deliveries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"event_id" text NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"retry_until" timestamp with time zone NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"response_status" integer,
	"duration_ms" integer,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seller_webhook_endpoints" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seller_id" text NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" text[] NOT NULL,
	"secret_sealed" text NOT NULL,
	"previous_secret_sealed" text,
	"previous_secret_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rotated_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"disabled_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "seller_webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"seller_id" text NOT NULL,
	"type" text NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "seller_webhook_deliveries" ADD CONSTRAINT "seller_webhook_deliveries_event_id_seller_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."seller_webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_webhook_deliveries" ADD CONSTRAINT "seller_webhook_deliveries_endpoint_id_seller_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."seller_webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_webhook_endpoints" ADD CONSTRAINT "seller_webhook_endpoints_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_webhook_events" ADD CONSTRAINT "seller_webhook_events_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "seller_webhook_deliveries_by_endpoint" ON "seller_webhook_deliveries" USING btree ("endpoint_id","created_at");--> statement-breakpoint
CREATE INDEX "seller_webhook_deliveries_due" ON "seller_webhook_deliveries" USING btree ("next_attempt_at") WHERE "seller_webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "seller_webhook_endpoints_by_seller" ON "seller_webhook_endpoints" USING btree ("seller_id");--> statement-breakpoint
CREATE INDEX "seller_webhook_events_by_seller" ON "seller_webhook_events" USING btree ("seller_id","created_at");