CREATE TABLE "seller_api_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key_id" uuid NOT NULL,
	"seller_id" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"operation" text NOT NULL,
	"status" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "seller_api_keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seller_id" text NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rolled_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "seller_api_keys_prefix_unique" UNIQUE("prefix")
);
--> statement-breakpoint
ALTER TABLE "seller_api_calls" ADD CONSTRAINT "seller_api_calls_key_id_seller_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."seller_api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_api_calls" ADD CONSTRAINT "seller_api_calls_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "seller_api_keys" ADD CONSTRAINT "seller_api_keys_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "seller_api_calls_by_seller" ON "seller_api_calls" USING btree ("seller_id","at");--> statement-breakpoint
CREATE INDEX "seller_api_calls_at" ON "seller_api_calls" USING btree ("at");--> statement-breakpoint
CREATE INDEX "seller_api_keys_live" ON "seller_api_keys" USING btree ("seller_id") WHERE "seller_api_keys"."revoked_at" is null;