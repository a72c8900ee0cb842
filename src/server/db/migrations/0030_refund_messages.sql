CREATE TABLE "refund_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"refund_id" uuid NOT NULL,
	"author_id" text,
	"author_role" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "refund_messages_author_role" CHECK ("refund_messages"."author_role" in ('buyer', 'seller', 'admin'))
);
--> statement-breakpoint
ALTER TABLE "refund_messages" ADD CONSTRAINT "refund_messages_refund_id_refund_requests_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refund_requests"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_messages" ADD CONSTRAINT "refund_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refund_messages_refund_id_created_at_index" ON "refund_messages" USING btree ("refund_id","created_at");--> statement-breakpoint
CREATE INDEX "refund_messages_author_id_created_at_index" ON "refund_messages" USING btree ("author_id","created_at");