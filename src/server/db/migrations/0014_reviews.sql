CREATE TABLE "license_validation_days" (
	"license_id" uuid NOT NULL,
	"day" date NOT NULL,
	CONSTRAINT "license_validation_days_license_id_day_pk" PRIMARY KEY("license_id","day")
);
--> statement-breakpoint
CREATE TABLE "review_reports" (
	"review_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "review_reports_review_id_user_id_pk" PRIMARY KEY("review_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"product_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"order_item_id" uuid,
	"rating" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"status" text DEFAULT 'published' NOT NULL,
	"hidden_reason" text,
	"seller_reply" text,
	"seller_reply_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reviews_user_product_unique" UNIQUE("user_id","product_id"),
	CONSTRAINT "reviews_rating_range" CHECK ("reviews"."rating" between 1 and 5),
	CONSTRAINT "reviews_status" CHECK ("reviews"."status" in ('published', 'hidden'))
);
--> statement-breakpoint
DROP INDEX "products_rating_id_index";--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "rating_score" numeric(5, 4);--> statement-breakpoint
ALTER TABLE "license_validation_days" ADD CONSTRAINT "license_validation_days_license_id_licenses_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licenses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_reports" ADD CONSTRAINT "review_reports_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_reports" ADD CONSTRAINT "review_reports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_order_item_id_order_items_id_fk" FOREIGN KEY ("order_item_id") REFERENCES "public"."order_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reviews_product_id_created_at_index" ON "reviews" USING btree ("product_id","created_at");--> statement-breakpoint
CREATE INDEX "products_rating_score_id_index" ON "products" USING btree ("rating_score" DESC NULLS LAST,"id");--> statement-breakpoint
-- Ratings now come only from reviews, and no review exists yet: the typed-in figures go.
UPDATE "products" SET "rating" = NULL, "reviews_count" = 0, "rating_score" = NULL;
