CREATE TABLE "featured_products" (
	"product_id" uuid PRIMARY KEY NOT NULL,
	"position" integer NOT NULL,
	"added_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "is_trusted_seller" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "moderation_status" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "moderation_reason" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "moderated_by" text;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "moderated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "featured_products" ADD CONSTRAINT "featured_products_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "featured_products" ADD CONSTRAINT "featured_products_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "featured_products_position_index" ON "featured_products" USING btree ("position");--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_moderated_by_users_id_fk" FOREIGN KEY ("moderated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "products_moderation_queue_index" ON "products" USING btree ("updated_at","id") WHERE "products"."moderation_status" = 'pending';--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_moderation_status" CHECK ("products"."moderation_status" in ('pending', 'approved', 'rejected'));